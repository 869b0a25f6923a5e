import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { VoiceCall } from '@switchboard/contracts';
import { paginate, poolRunner, rowsOf } from '@switchboard/persistence';
import type { CursorCodec, Page, PageRequest, SqlRunner } from '@switchboard/persistence';
import { DataSource } from 'typeorm';
import type { SqlFilter } from '../database/sql-filter';
import { VOICE_CALL_COLUMNS, voiceCallParams } from './voice-call.mapper';
import type { VoiceCallRow } from './voice-call.mapper';

const SELECT = `id, workspace_id, session_id, direction, from_number, to_number, actor, sip_trunk_id,
  status, sip_response_code, rejection_reason, route, tags, started_at, answered_at, ended_at,
  duration_ms, pdd_ms, billable_ms, media_quality, cost`;

/** Named queries over sms_whatsapp.voice_calls; every one is scoped by workspace. */
@Injectable()
export class VoiceCallsRepository {
  private readonly reads: SqlRunner;

  constructor(@InjectDataSource('sms_whatsapp') dataSource: DataSource) {
    this.reads = poolRunner(dataSource);
  }

  /** The recorded leg a report names, locked for the report's transaction. */
  async findLeg(runner: SqlRunner, call: VoiceCall): Promise<VoiceCallRow | undefined> {
    const rows = rowsOf<VoiceCallRow>(
      await runner.query(
        `SELECT ${SELECT} FROM sms_whatsapp.voice_calls
         WHERE workspace_id = $1 AND session_id = $2 AND direction = $3 AND from_number = $4
           AND to_number = $5
         FOR UPDATE`,
        [call.workspace_id, call.session_id, call.direction, call.from, call.to],
      ),
    );
    return rows[0];
  }

  /** Records a new leg; false when a concurrent first report of the same leg got there first. */
  async insert(runner: SqlRunner, call: VoiceCall): Promise<boolean> {
    const placeholders = VOICE_CALL_COLUMNS.map((_, i) => `$${i + 1}`).join(', ');
    const rows = rowsOf(
      await runner.query(
        `INSERT INTO sms_whatsapp.voice_calls (${VOICE_CALL_COLUMNS.join(', ')})
         VALUES (${placeholders})
         ON CONFLICT (workspace_id, session_id, direction, from_number, to_number)
           WHERE session_id IS NOT NULL DO NOTHING
         RETURNING id`,
        voiceCallParams(call),
      ),
    );
    return rows.length > 0;
  }

  async update(runner: SqlRunner, call: VoiceCall): Promise<void> {
    const assignments = VOICE_CALL_COLUMNS.slice(1)
      .map((column, i) => `${column} = $${i + 2}`)
      .join(', ');
    await runner.query(
      `UPDATE sms_whatsapp.voice_calls SET ${assignments}, updated_at = clock_timestamp()
       WHERE id = $1`,
      voiceCallParams(call),
    );
  }

  async find(workspaceId: string, id: string): Promise<VoiceCallRow | undefined> {
    const rows = rowsOf<VoiceCallRow>(
      await this.reads.query(
        `SELECT ${SELECT} FROM sms_whatsapp.voice_calls WHERE workspace_id = $1 AND id = $2`,
        [workspaceId, id],
      ),
    );
    return rows[0];
  }

  /** The workspace's calls (`filter` starts with the workspace), latest start first. */
  list(
    filter: SqlFilter,
    bound: Record<string, unknown>,
    page: PageRequest,
    cursors: CursorCodec,
  ): Promise<Page<VoiceCallRow>> {
    return paginate<VoiceCallRow>(
      this.reads,
      {
        from: 'sms_whatsapp.voice_calls',
        select: SELECT,
        where: { sql: filter.sql, params: filter.params },
        filters: bound,
        sorts: { started_at: { column: 'started_at', type: 'timestamptz' } },
        defaultSort: 'started_at',
        defaultOrder: 'desc',
        idColumn: 'id',
      },
      page,
      cursors,
    );
  }
}
