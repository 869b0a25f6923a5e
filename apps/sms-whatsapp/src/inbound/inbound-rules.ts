import type { SqlRunner } from '@switchboard/persistence';

/** An inbound message as stored, handed to the keyword rules inside the same transaction. */
export interface InboundForRules {
  workspaceId: string;
  /** The stored inbound message's id (`source_sms_id` of an episode it opens or ends). */
  messageId: string;
  /** The person, E.164. */
  from: string;
  /** The workspace's number it was sent to, E.164 (or a short code's digits). */
  to: string;
  /** The country the workspace holds that number in. */
  toCountry: string;
  text: string;
  receivedAt: Date;
}

/** A reply the rules ask to send back: from the number that received the message to its sender. */
export interface KeywordReply {
  from: string;
  to: string;
  text: string;
  /** The rule's operation (`stop`, `start`, `help`, `info`, `confirm`, `custom`). */
  operation: string;
}

/**
 * The keyword rules applied to every inbound SMS, in the transaction that stores it (`executor`):
 * an opt-out keyword opens (or re-asserts) a suppression episode for (originator = our number,
 * destination = the person), an opt-in keyword ends it, and each matched rule may answer with a
 * reply. The messages pipeline queues the replies as outbound messages of category `service`,
 * past the suppression check (a STOP confirmation goes to a pair it has just suppressed).
 */
export interface InboundRules {
  apply(executor: SqlRunner, inbound: InboundForRules): Promise<KeywordReply[]>;
}

/** The injection token of the service's `InboundRules`. */
export const INBOUND_RULES = Symbol('INBOUND_RULES');
