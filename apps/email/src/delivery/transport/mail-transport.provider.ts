import type { FactoryProvider } from '@nestjs/common';
import { EMAIL_CONFIG } from '../../config/email.config';
import type { EmailConfig } from '../../config/email.config';
import { DirectMxTransport } from './direct-mx.transport';
import { MAIL_TRANSPORT, MAIL_TRANSPORT_OPTIONS } from './mail-transport';
import type { MailTransport, MailTransportOptions } from './mail-transport';
import { SmtpRelayTransport } from './smtp-relay.transport';

/** The process's transport: the relay when SMTP_RELAY_URL is set, else direct to MX hosts. */
export function createMailTransport(
  config: EmailConfig,
  options: MailTransportOptions = {},
): MailTransport {
  return config.SMTP_RELAY_URL
    ? new SmtpRelayTransport(config, options)
    : new DirectMxTransport(config, options);
}

/** `MAIL_TRANSPORT`, chosen once when the module is set up (`MAIL_TRANSPORT_OPTIONS` optional). */
export const mailTransportProvider: FactoryProvider<MailTransport> = {
  provide: MAIL_TRANSPORT,
  useFactory: (config: EmailConfig, options?: MailTransportOptions) =>
    createMailTransport(config, options),
  inject: [EMAIL_CONFIG, { token: MAIL_TRANSPORT_OPTIONS, optional: true }],
};
