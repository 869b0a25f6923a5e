import { Injectable } from '@nestjs/common';
import { rowsOf } from '@switchboard/persistence';
import type { SqlRunner } from '@switchboard/persistence';
import type { InboundSms } from '../carriers/sms-carrier';

/** Named queries of inbound messages: who holds the number, and what nobody does. */
@Injectable()
export class InboundRepository {
  /** The workspace holding `number` now, if any, with the number as it holds it. */
  async holderOf(
    runner: SqlRunner,
    number: string,
  ): Promise<{ workspaceId: string; number: string } | undefined> {
    const rows = rowsOf<{ workspace_id: string; number: string }>(
      await runner.query(
        `SELECT workspace_id, number FROM sms_whatsapp.number_allocations
         WHERE number = ANY ($1::text[]) AND released_at IS NULL AND status = 'active'`,
        // E.164 numbers are held with their `+`, short codes as bare digits: either spelling.
        [[number, number.replace(/^\+/, ''), `+${number.replace(/^\+/, '')}`]],
      ),
    );
    return rows[0] && { workspaceId: rows[0].workspace_id, number: rows[0].number };
  }

  async recordUnroutable(runner: SqlRunner, message: InboundSms): Promise<void> {
    await runner.query(
      `INSERT INTO sms_whatsapp.sms_unroutable_inbound (carrier, from_address, to_address, text, received_at)
       VALUES ($1, $2, $3, $4, $5)`,
      [message.carrier, message.from, message.to, message.text, message.receivedAt],
    );
  }
}
