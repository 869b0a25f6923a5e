import { Injectable } from '@nestjs/common';
import { rowsOf } from '@switchboard/persistence';
import type { SqlRunner } from '@switchboard/persistence';
import type { InboundSms } from '../carriers/sms-carrier';

/** Who an inbound message is for: the workspace, its number as held, the number's country. */
export interface InboundHolder {
  workspaceId: string;
  number: string;
  country: string;
}

/** Named queries of inbound messages: who holds the number, and what nobody does. */
@Injectable()
export class InboundRepository {
  /**
   * The workspace holding `number` now, if any, with the number as it holds it and its country.
   * A short code stocked in several countries is the one in the sender's country, held or not; a
   * message from elsewhere to it has no holder (it cannot tell which of them it was for).
   */
  async holderOf(
    runner: SqlRunner,
    number: string,
    senderCountry: string | null,
  ): Promise<InboundHolder | undefined> {
    const rows = rowsOf<{
      workspace_id: string;
      number: string;
      country_code: string;
      stocked_in: number;
    }>(
      await runner.query(
        `SELECT a.workspace_id, a.number, a.country_code,
           (SELECT count(*) FROM sms_whatsapp.numbers n WHERE n.number = a.number)::int AS stocked_in
         FROM sms_whatsapp.number_allocations a
         WHERE a.number = ANY ($1::text[]) AND a.released_at IS NULL AND a.status = 'active'`,
        // E.164 numbers are held with their `+`, short codes as bare digits: either spelling.
        [[number, number.replace(/^\+/, ''), `+${number.replace(/^\+/, '')}`]],
      ),
    );
    const ambiguous = rows.length > 1 || rows.some((row) => row.stocked_in > 1);
    const held = ambiguous ? rows.find((row) => row.country_code === senderCountry) : rows[0];
    return (
      held && { workspaceId: held.workspace_id, number: held.number, country: held.country_code }
    );
  }

  /**
   * Stores one part of a long message and, when it was the last to come, takes the whole set
   * out: the parts in order, or undefined while some are missing. The key's writers take turns
   * (a transaction lock on it), so two parts arriving at once on two binds never both miss the
   * other. A part sent again replaces its copy.
   */
  async storePart(
    runner: SqlRunner,
    message: InboundSms & { part: NonNullable<InboundSms['part']> },
  ): Promise<Array<{ text: string; received_at: Date }> | undefined> {
    // Kept as UTF-16 code units: half an emoji at the end of one part meets its other half.
    const units = Buffer.from(message.text, 'utf16le');
    const { carrier, from, to, part } = message;
    const key = [carrier, from, to, part.reference, part.total];
    await runner.query(`SELECT pg_advisory_xact_lock(hashtextextended($1, 0))`, [key.join(' ')]);
    await runner.query(
      `INSERT INTO sms_whatsapp.sms_inbound_parts (carrier, from_address, to_address, reference,
         total, sequence, text_utf16, received_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
       ON CONFLICT (carrier, from_address, to_address, reference, total, sequence)
       DO UPDATE SET text_utf16 = excluded.text_utf16, received_at = excluded.received_at`,
      [...key, part.sequence, units, message.receivedAt],
    );
    const parts = rowsOf<{ sequence: number; text_utf16: Buffer; received_at: Date }>(
      await runner.query(
        `SELECT sequence, text_utf16, received_at FROM sms_whatsapp.sms_inbound_parts
         WHERE carrier = $1 AND from_address = $2 AND to_address = $3 AND reference = $4
           AND total = $5
         ORDER BY sequence`,
        key,
      ),
    );
    if (parts.length < part.total) return undefined;
    await runner.query(
      `DELETE FROM sms_whatsapp.sms_inbound_parts
       WHERE carrier = $1 AND from_address = $2 AND to_address = $3 AND reference = $4
         AND total = $5`,
      key,
    );
    return parts.map((p) => ({
      text: p.text_utf16.toString('utf16le'),
      received_at: p.received_at,
    }));
  }

  async recordUnroutable(runner: SqlRunner, message: InboundSms): Promise<void> {
    await runner.query(
      `INSERT INTO sms_whatsapp.sms_unroutable_inbound (carrier, from_address, to_address, text, received_at)
       VALUES ($1, $2, $3, $4, $5)`,
      [message.carrier, message.from, message.to, message.text, message.receivedAt],
    );
  }
}
