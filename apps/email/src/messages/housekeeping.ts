import { Injectable } from '@nestjs/common';
import { PeriodicJob } from '@switchboard/platform';
import { ContentsRepository } from './contents.repository';

/** Contents dropped per round. */
const BATCH = 1000;

/**
 * Drops stored bodies and attachments once their retention is over (then `/content` answers
 * 410), a thousand messages at a time, every ten minutes. The message, its recipients and
 * events stay.
 */
@Injectable()
export class ContentExpiry extends PeriodicJob {
  protected readonly everyMs = 10 * 60_000;

  constructor(private readonly contents: ContentsRepository) {
    super();
  }

  protected async work(): Promise<number> {
    let purged = 0;
    for (;;) {
      const expired = await this.contents.expired(BATCH);
      purged += await this.contents.purge(expired);
      if (expired.length < BATCH) return purged;
    }
  }
}
