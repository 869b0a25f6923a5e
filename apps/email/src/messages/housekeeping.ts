import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { rowsOf } from '@switchboard/persistence';
import { PeriodicJob } from '@switchboard/platform';
import { DataSource } from 'typeorm';

/**
 * Drops stored bodies and attachments once their retention is over (then `/content` answers
 * 410), a thousand messages at a time, every ten minutes. The message, its recipients and
 * events stay.
 */
@Injectable()
export class ContentExpiry extends PeriodicJob {
  protected readonly everyMs = 10 * 60_000;

  constructor(@InjectDataSource('email') private readonly dataSource: DataSource) {
    super();
  }

  protected async work(): Promise<number> {
    let purged = 0;
    for (;;) {
      const rows = rowsOf(
        await this.dataSource.query(
          `UPDATE email.contents SET html = NULL, text = NULL, attachments = '[]', purged = true
           WHERE message_id IN (
             SELECT message_id FROM email.contents
             WHERE expires_at < now() AND NOT purged LIMIT 1000
           ) RETURNING message_id`,
        ),
      );
      purged += rows.length;
      if (rows.length < 1000) return purged;
    }
  }
}
