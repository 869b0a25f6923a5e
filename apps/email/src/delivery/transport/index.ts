export { MAIL_TRANSPORT, MAIL_TRANSPORT_OPTIONS } from './mail-transport';
export type { MailTransport, MailTransportOptions } from './mail-transport';
export { createMailTransport, mailTransportProvider } from './mail-transport.provider';
export { composeMessage } from './compose-message';
export type { ComposedMail } from './compose-message';
export type { BounceType, DeliveryOutcome, OutboundMail, RecipientResult } from './outbound-mail';
