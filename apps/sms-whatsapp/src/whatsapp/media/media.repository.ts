import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { poolRunner } from '@switchboard/persistence';
import type { SqlRunner } from '@switchboard/persistence';
import { DataSource } from 'typeorm';
import { returnedRows } from '../inbound/returned-rows';

export type MediaStatus = 'pending' | 'stored' | 'failed' | 'expired';

export interface MediaRow {
  id: string;
  workspace_id: string;
  message_id: string;
  meta_media_id: string;
  mime_type: string | null;
  sha256: string | null;
  filename: string | null;
  size_bytes: string | null;
  status: MediaStatus;
  expires_at: Date;
}

const COLUMNS = `id, workspace_id, message_id, meta_media_id, mime_type, sha256, filename,
  size_bytes, status, expires_at`;

/** Named queries of inbound media; reads for a caller are scoped by workspace. */
@Injectable()
export class MediaRepository {
  readonly runner: SqlRunner;

  constructor(@InjectDataSource('sms_whatsapp') dataSource: DataSource) {
    this.runner = poolRunner(dataSource);
  }

  async find(workspaceId: string, messageId: string, mediaId: string) {
    const rows = returnedRows<MediaRow>(
      await this.runner.query(
        `SELECT ${COLUMNS} FROM sms_whatsapp.whatsapp_media
         WHERE workspace_id = $1 AND message_id = $2 AND id = $3`,
        [workspaceId, messageId, mediaId],
      ),
    );
    return rows[0];
  }

  /** By id alone: a signed link is the credential, and it names one media row. */
  async findForLink(mediaId: string): Promise<MediaRow | undefined> {
    const rows = returnedRows<MediaRow>(
      await this.runner.query(`SELECT ${COLUMNS} FROM sms_whatsapp.whatsapp_media WHERE id = $1`, [
        mediaId,
      ]),
    );
    return rows[0];
  }

  /** `length` bytes from `offset` (0-based) of stored media. */
  async chunk(mediaId: string, offset: number, length: number): Promise<Buffer | undefined> {
    const rows = returnedRows<{ chunk: Buffer | null }>(
      await this.runner.query(
        `SELECT substring(bytes FROM $2::int + 1 FOR $3::int) AS chunk
         FROM sms_whatsapp.whatsapp_media WHERE id = $1 AND status = 'stored'`,
        [mediaId, offset, length],
      ),
    );
    return rows[0]?.chunk ?? undefined;
  }

  async messageDirection(workspaceId: string, messageId: string): Promise<string | undefined> {
    const rows = returnedRows<{ direction: string }>(
      await this.runner.query(
        `SELECT direction FROM sms_whatsapp.whatsapp_messages WHERE workspace_id = $1 AND id = $2`,
        [workspaceId, messageId],
      ),
    );
    return rows[0]?.direction;
  }
}
