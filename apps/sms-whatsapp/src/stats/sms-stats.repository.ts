import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { poolRunner } from '@switchboard/persistence';
import { DataSource } from 'typeorm';
import { RollupReads } from '@switchboard/persistence';
import type { Sketches } from '@switchboard/persistence';

export const SMS_COUNTS = [
  'accepted',
  'sent',
  'delivered',
  'undelivered',
  'failed',
  'rejected',
  'expired',
] as const;
export type SmsCounts = Record<(typeof SMS_COUNTS)[number], number>;
export type SmsSketches = Sketches;
export type { StatsScope } from '@switchboard/persistence';

/** The SMS rollups' reads (ADR 18). */
@Injectable()
export class SmsStatsRepository extends RollupReads<(typeof SMS_COUNTS)[number]> {
  constructor(@InjectDataSource('sms_whatsapp') dataSource: DataSource) {
    super(poolRunner(dataSource), {
      schema: 'sms_whatsapp',
      outbound: 'sms_whatsapp.sms_stats_rollups',
      daily: 'sms_whatsapp.sms_stats_daily_rollups',
      inbound: 'sms_whatsapp.sms_inbound_stats_rollups',
      counts: SMS_COUNTS,
      stream: 'sms',
    });
  }
}
