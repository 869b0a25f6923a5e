/**
 * Work-queue jobs that carry the workspace's side of an inbound conversation to Meta: the
 * pending reaction changes of one message (sent in the order they were accepted), or a read
 * receipt.
 */
export const INTERACTIONS_QUEUE = 'whatsapp.interactions';

export type InteractionJob =
  | { kind: 'reaction'; message_id: string }
  | { kind: 'read'; message_id: string; typing_indicator: boolean };

/** Reaction-log status of a change accepted and not yet handed to Meta (not listed). */
export const PENDING_REACTION = 'pending';
