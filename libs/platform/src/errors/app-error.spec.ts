import { ContactErrors, EmailErrors } from '@switchboard/contracts';
import { AppError } from './app-error';

describe('AppError over the transport', () => {
  it('keeps code, details, vendor code and a Retry-After header', () => {
    const sent = new AppError(EmailErrors.OnboardingDomainLimit, {
      details: [{ param: 'from', message: 'limit' }],
      vendorCode: '451',
      headers: { 'retry-after': '3600' },
    });
    const received = AppError.fromTransport(JSON.parse(JSON.stringify(sent.toTransport())));
    expect(received).toMatchObject({
      code: 'E07002',
      details: [{ param: 'from', message: 'limit' }],
      vendorCode: '451',
      headers: { 'retry-after': '3600' },
    });
  });

  it('keeps the param a non-validation error names', () => {
    const sent = new AppError(ContactErrors.ContactEmailTaken, {
      message: 'taken',
      param: 'email',
    });
    const received = AppError.fromTransport(JSON.parse(JSON.stringify(sent.toTransport())));
    expect(received).toMatchObject({ code: 'E04056', message: 'taken', param: 'email' });
    expect(received.details).toBeUndefined();
  });

  it('drops headers a service has no business setting', () => {
    const wire = {
      code: 'E01018',
      message: 'x',
      headers: { 'set-cookie': 'a', 'retry-after': 'soon' },
    };
    expect(AppError.fromTransport(wire).headers).toBeUndefined();
  });
});
