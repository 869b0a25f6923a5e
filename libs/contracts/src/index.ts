// Shared: errors, the envelope, services, request context, pagination and the typed transport.
export * from './error-catalog';
export * from './errors/common.errors';
export * from './error-envelope';
export * from './services';
export * from './subjects';
export * from './request-context';
export * from './pagination';
export * from './rpc';
export * from './rpc-map';
// One block per area: its value types and subjects, its operations, its error codes.
export * from './docs/docs';
export * from './docs/docs.rpc';
export * from './docs/docs.errors';
export * from './realtime/realtime';
export * from './realtime/realtime.rpc';
export * from './realtime/realtime.errors';
export * from './email';
export * from './email/domains';
export * from './email/suppressions';
export * from './email/email.rpc';
export * from './email/email.errors';
export * from './webhooks';
export * from './webhooks/webhooks.rpc';
export * from './webhooks/webhooks.errors';
export * from './contacts/contacts';
export * from './contacts/contacts.rpc';
export * from './contacts/contacts.errors';
