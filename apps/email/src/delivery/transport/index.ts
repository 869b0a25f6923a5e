export { MailTransport, MAIL_TRANSPORT_OPTIONS, RELAY_DESTINATION } from './mail-transport';
export type { MailTransportOptions } from './mail-transport';
export { composeMessage } from './compose-message';
export type { ComposedMail } from './compose-message';
export type { BounceType, DeliveryOutcome, OutboundMail, RecipientResult } from './outbound-mail';
