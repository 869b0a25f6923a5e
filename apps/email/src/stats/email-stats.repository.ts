import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { poolRunner, RollupReads } from '@switchboard/persistence';
import { DataSource } from 'typeorm';
import { EMAIL_STATS_COUNTS } from './email-stats-counts';
import type { EmailStatsCount } from './email-stats-counts';

/** The email rollups' reads (ADR 18). Email has no inbound stats: the inbound reads go unused. */
@Injectable()
export class EmailStatsRepository extends RollupReads<EmailStatsCount> {
  constructor(@InjectDataSource('email') dataSource: DataSource) {
    super(poolRunner(dataSource), {
      schema: 'email',
      outbound: 'email.email_stats_rollups',
      daily: 'email.email_stats_daily_rollups',
      inbound: 'email.email_stats_rollups',
      counts: EMAIL_STATS_COUNTS,
      stream: 'email',
    });
  }
}
