/**
 * Bus events whose type starts with `internal.` are messages between services (a channel telling
 * the preference ledger what a person said). They never leave the platform: the webhooks service
 * neither stores nor delivers them, and no endpoint can subscribe to one.
 */
export const INTERNAL_EVENT_PREFIX = 'internal.';

export function isInternalEventType(type: string): boolean {
  return type.startsWith(INTERNAL_EVENT_PREFIX);
}
