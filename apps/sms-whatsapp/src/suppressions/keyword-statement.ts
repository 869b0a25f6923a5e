import { PREFERENCE_STATEMENT_EVENT } from '@switchboard/contracts';
import type { PreferenceStatementEvent } from '@switchboard/contracts';
import { newId } from '@switchboard/persistence';
import type { OutboxEvent } from '@switchboard/platform';

/** The handles the preference ledger keys SMS by: E.164 (what a phone texting us has). */
const LEDGER_HANDLE = /^\+[1-9]\d{6,14}$/;

/** A STOP or START the keyword rules acted on: the person texted `originator` from `destination`. */
export interface KeywordStatement {
  workspaceId: string;
  originator: string;
  destination: string;
  /** The inbound message that carried the keyword. */
  messageId: string;
  at: Date;
}

/**
 * What the person said, for the preference ledger (`internal.preference.statement`): a STOP
 * revokes everything from the number they texted, a START grants it again with that moment as
 * its consent. Undefined for a sender the ledger cannot key (not E.164): the suppression alone
 * then holds the opt-out.
 */
export function keywordStatementEvent(
  operation: 'stop' | 'start',
  keyword: KeywordStatement,
): OutboxEvent<PreferenceStatementEvent> | undefined {
  if (!LEDGER_HANDLE.test(keyword.destination)) return undefined;
  const at = keyword.at.toISOString();
  return {
    id: newId('ev', keyword.at.getTime()),
    type: PREFERENCE_STATEMENT_EVENT,
    workspaceId: keyword.workspaceId,
    timestamp: at,
    data: {
      channel: 'sms',
      handle: keyword.destination,
      sender_scope: keyword.originator,
      status: operation === 'stop' ? 'revoked' : 'granted',
      coverage: 'all',
      origin: 'keyword',
      effective_at: at,
      consented_at: operation === 'stop' ? null : at,
      source: `sms:${keyword.messageId}`,
    },
  };
}
