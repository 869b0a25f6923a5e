import { Injectable } from '@nestjs/common';
import { rowsOf } from '@switchboard/persistence';
import type { SqlRunner } from '@switchboard/persistence';
import type { InboundSms } from '../carriers/sms-carrier';

/** Named queries of inbound messages: who holds the number, and what nobody does. */
@Injectable()
export class InboundRepository {
  /** The workspace holding `number` now, if any. */
  async holderOf(runner: SqlRunner, number: string): Promise<string | undefined> {
    const rows = rowsOf<{ workspace_id: string }>(
      await runner.query(
        `SELECT workspace_id FROM sms_whatsapp.number_allocations
         WHERE number = $1 AND released_at IS NULL AND status = 'active'`,
        [number],
      ),
    );
    return rows[0]?.workspace_id;
  }

  async recordUnroutable(runner: SqlRunner, message: InboundSms): Promise<void> {
    await runner.query(
      `INSERT INTO sms_whatsapp.sms_unroutable_inbound (carrier, from_address, to_address, text, received_at)
       VALUES ($1, $2, $3, $4, $5)`,
      [message.carrier, message.from, message.to, message.text, message.receivedAt],
    );
  }
}
