import fc from 'fast-check';
import { renderSmsTemplate, resolveLanguage } from './render-sms-template';
import { SYSTEM_SMS_TEMPLATES } from './system-sms-templates';

/** GSM 03.38's basic set: a body of these alone fits 160 characters in one segment, else 70. */
const GSM_BASIC =
  '@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !"#¤%&\'()*+,-./0123456789:;<=>?¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà';
const oneSegment = (text: string) =>
  [...text].every((char) => GSM_BASIC.includes(char)) ? text.length <= 160 : text.length <= 70;

const otp = SYSTEM_SMS_TEMPLATES.find(({ slug }) => slug === 'bird_otp_verification')!;

describe(renderSmsTemplate.name, () => {
  it('renders the one-time passcode in each shipped language', () => {
    for (const language of ['en', 'nl', 'de', 'fr', 'es']) {
      const rendered = renderSmsTemplate({ slug: 'bird_otp_verification' }, language, {
        code: '042917',
      });
      expect(rendered).toMatchObject({ ok: true, language, category: 'authentication' });
      if (!rendered.ok) throw new Error('not rendered');
      expect(rendered.text).toContain('042917');
      expect(rendered.stored_text).not.toContain('042917');
      expect(rendered.stored_text).toContain('{{ code }}');
      expect(rendered.template_id).toBe(otp.id);
    }
  });

  it('finds a template by id as well as by slug, and by its deprecated name', () => {
    expect(renderSmsTemplate({ id: otp.id }, undefined, { code: '1234' })).toMatchObject({
      ok: true,
      language: 'en',
    });
    expect(renderSmsTemplate({ name: 'One-time passcode' }, 'de', { code: '1234' })).toMatchObject({
      ok: true,
      language: 'de',
    });
  });

  it('falls back to a broader language, then to the default (on_missing_language fallback)', () => {
    expect(resolveLanguage(otp, 'pt-br')).toBe('pt-BR');
    expect(resolveLanguage(otp, 'de-AT')).toBe('de');
    expect(resolveLanguage(otp, 'fr-CA')).toBe('fr');
    expect(resolveLanguage(otp, 'ja')).toBe('en');
    expect(resolveLanguage(otp, undefined)).toBe('en');
  });

  it('names every missing, undeclared and malformed parameter', () => {
    const rendered = renderSmsTemplate({ slug: 'bird_otp_verification_expiry' }, 'x!', {
      code: 12345,
      colour: 'blue',
    });
    expect(rendered.ok).toBe(false);
    if (rendered.ok) return;
    expect(rendered.problems.map(({ param }) => param).sort()).toEqual([
      'template.language',
      'template.parameters.code',
      'template.parameters.colour',
      'template.parameters.minutes',
    ]);
  });

  it('refuses unknown references and parameters over 16 KB', () => {
    expect(renderSmsTemplate({ slug: 'nope' }, undefined, {})).toEqual({
      ok: false,
      problems: [{ param: 'template.slug', message: 'no SMS template has this slug' }],
    });
    expect(renderSmsTemplate({}, undefined, {})).toMatchObject({ ok: false });
    const big = renderSmsTemplate({ slug: 'bird_notification' }, 'en', {
      brand: 'Acme',
      message: 'x'.repeat(17_000),
    });
    expect(big).toMatchObject({ ok: false, problems: [{ param: 'template.parameters' }] });
  });

  it('normalises typed values (amounts get two decimals, numbers become text)', () => {
    const rendered = renderSmsTemplate({ slug: 'bird_payment_confirmation' }, 'nl', {
      brand: 'Acme',
      amount: 12.5,
      currency: 'EUR',
    });
    expect(rendered).toMatchObject({ ok: true, text: expect.stringContaining('12.50 EUR') });
    expect(
      renderSmsTemplate({ slug: 'bird_otp_verification_expiry' }, 'en', {
        code: 'AB12',
        minutes: '10',
      }),
    ).toMatchObject({ ok: true, text: expect.stringContaining('10 minutes') });
  });

  it('never throws, and never lets a value break out of its slot, whatever the parameters', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...SYSTEM_SMS_TEMPLATES.map(({ slug }) => slug)),
        fc.option(fc.string({ maxLength: 12 }), { nil: undefined }),
        fc.dictionary(fc.string({ maxLength: 10 }), fc.anything()),
        (slug, language, parameters) => {
          const rendered = renderSmsTemplate({ slug }, language, parameters);
          if (rendered.ok) {
            expect(rendered.text).not.toMatch(/\{\{|\n|\r/);
          } else {
            expect(rendered.problems.length).toBeGreaterThan(0);
          }
        },
      ),
    );
  });

  it('keeps every shipped body to one segment with its longest values', () => {
    const longest: Record<string, unknown> = {
      code: 'ABCDEFGHIJ',
      minutes: 1440,
      brand: 'B'.repeat(30),
      date: '2026-12-31',
      time: '23:59',
      amount: '999999999999.99',
      currency: 'EUR',
    };
    for (const template of SYSTEM_SMS_TEMPLATES.filter(({ slug }) => slug !== 'bird_notification'))
      for (const language of Object.keys(template.bodies)) {
        const parameters = Object.fromEntries(
          template.variables.map(({ key }) => [key, longest[key]]),
        );
        const rendered = renderSmsTemplate({ id: template.id }, language, parameters);
        if (!rendered.ok) throw new Error(JSON.stringify(rendered.problems));
        expect({ slug: template.slug, language, fits: oneSegment(rendered.text) }).toEqual({
          slug: template.slug,
          language,
          fits: true,
        });
      }
  });
});
