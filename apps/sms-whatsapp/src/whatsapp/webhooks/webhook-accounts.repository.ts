import { Injectable } from '@nestjs/common';
import { newId, rowsOf } from '@switchboard/persistence';
import type { SqlRunner } from '@switchboard/persistence';

export interface NumberState {
  id: string;
  workspace_id: string;
  status: string;
  messaging_limit: string | null;
}

/** A number's change a webhook asks for, and the event that records it. */
export interface NumberChange {
  status?: string;
  messagingLimit?: string;
  event: { type: string; summary: string; metadata: Record<string, unknown> };
}

/**
 * Named queries the webhook processor runs on numbers and business accounts of its own: the
 * account-level updates Meta reports, and the statuses of our reactions.
 */
@Injectable()
export class WebhookAccountsRepository {
  /**
   * The account's number with these digits, locked: changes that name a number by its display
   * form (quality updates) and carry no phone number id.
   */
  async lockNumberOfAccount(
    runner: SqlRunner,
    wabaId: string,
    digits: string,
  ): Promise<NumberState | undefined> {
    const [row] = rowsOf<NumberState>(
      await runner.query(
        `SELECT n.id, n.workspace_id, n.status, n.messaging_limit
         FROM sms_whatsapp.whatsapp_numbers n
         JOIN sms_whatsapp.whatsapp_business_accounts a ON a.id = n.business_account_id
         WHERE a.waba = $1 AND regexp_replace(n.phone_number, '\\D', '', 'g') = $2
         FOR UPDATE OF n`,
        [wabaId, digits],
      ),
    );
    return row;
  }

  /**
   * Sets what changed and records its event. The caller read the number locked and asks only
   * for a real change, so a retried webhook (which finds the change made) records nothing.
   */
  async changeNumber(runner: SqlRunner, number: NumberState, change: NumberChange): Promise<void> {
    await runner.query(
      `WITH u AS (
         UPDATE sms_whatsapp.whatsapp_numbers
         SET status = coalesce($2, status), messaging_limit = coalesce($3, messaging_limit),
           updated_at = clock_timestamp()
         WHERE id = $1
       )
       INSERT INTO sms_whatsapp.whatsapp_number_events (id, workspace_id, number_id, type, summary, metadata)
       VALUES ($4, $5, $1, $6, $7, $8::jsonb)`,
      [
        number.id,
        change.status ?? null,
        change.messagingLimit ?? null,
        newId('wne'),
        number.workspace_id,
        change.event.type,
        change.event.summary,
        JSON.stringify(change.event.metadata),
      ],
    );
  }

  /** An `account_update`: the account's ban state and status, as Meta reports them. */
  async updateAccount(
    runner: SqlRunner,
    wabaId: string,
    update: { status?: string; ban?: Record<string, unknown> },
  ): Promise<void> {
    await runner.query(
      `UPDATE sms_whatsapp.whatsapp_business_accounts
       SET status = coalesce($2, status), ban = coalesce($3::jsonb, ban),
         updated_at = clock_timestamp()
       WHERE waba = $1
         AND (status IS DISTINCT FROM coalesce($2, status) OR ban IS DISTINCT FROM coalesce($3::jsonb, ban))`,
      [wabaId, update.status ?? null, update.ban ? JSON.stringify(update.ban) : null],
    );
  }
}
