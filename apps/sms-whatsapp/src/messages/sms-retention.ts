import { Injectable } from '@nestjs/common';
import { inChunks } from '@switchboard/persistence';
import { PeriodicJob } from '@switchboard/platform';
import { retentionBound } from './messages.service';
import { SmsRetentionRepository } from './sms-retention.repository';

/** Rows per statement, so one pass never holds many locks or a long transaction. */
const CHUNK = 5_000;
/** How long the parts of a long inbound message wait for the rest: carriers give up sooner. */
const PART_WAIT_MS = 86_400_000;

/**
 * The SDK's 30 days of SMS messages: past the bound the list and reads already use, a message
 * goes with its timeline, parts and stats dedupe keys (the rollups keep their counts), and so do
 * the operator's unroutable inbound messages; a part of a long inbound message whose other parts
 * never came goes after a day. Runs every ten minutes in chunks; several replicas at once only
 * repeat work already done.
 */
@Injectable()
export class SmsRetention extends PeriodicJob {
  protected readonly everyMs = 10 * 60_000;

  constructor(private readonly repository: SmsRetentionRepository) {
    super();
  }

  protected async work(): Promise<number> {
    const { deleted, unroutable, parts } = await this.expire();
    return deleted + unroutable + parts;
  }

  /** One pass: chunks until nothing is left past the bounds. */
  async expire(now = new Date()): Promise<{ deleted: number; unroutable: number; parts: number }> {
    const bound = retentionBound(now);
    const deleted = await inChunks(CHUNK, () => this.repository.deleteMessages(bound, CHUNK));
    const unroutable = await inChunks(CHUNK, () => this.repository.deleteUnroutable(bound, CHUNK));
    const partsBound = new Date(now.getTime() - PART_WAIT_MS);
    const parts = await inChunks(CHUNK, () => this.repository.deleteStaleParts(partsBound, CHUNK));
    return { deleted, unroutable, parts };
  }
}
