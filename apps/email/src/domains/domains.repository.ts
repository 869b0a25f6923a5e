import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type {
  EmailDomainStatus,
  EmailDomainVendor,
  ListEmailDomainsRequest,
} from '@switchboard/contracts';
import { paginate, poolRunner, rowsOf } from '@switchboard/persistence';
import type { CursorCodec, Page, SqlRunner } from '@switchboard/persistence';
import { DataSource } from 'typeorm';
import type { EntityManager } from 'typeorm';
import type { StoredDnsRecord } from './domain-records';

export interface DomainRow {
  id: string;
  workspace_id: string;
  domain: string;
  status: EmailDomainStatus;
  vendor: EmailDomainVendor;
  click_tracking: boolean;
  open_tracking: boolean;
  dkim_selector: string;
  dkim_key_size: number;
  return_path_name: string;
  records: StoredDnsRecord[];
  last_checked_at: Date | string | null;
  verified_at: Date | string | null;
  created_at: Date | string;
  updated_at: Date | string;
}

const COLUMNS =
  'id, workspace_id, domain, status, vendor, click_tracking, open_tracking, dkim_selector, dkim_key_size, return_path_name, records, last_checked_at, verified_at, created_at, updated_at';

/** What the send path needs of a domain, the private key still sealed. */
export interface SenderDomainRow {
  id: string;
  domain: string;
  status: EmailDomainStatus;
  dkim_selector: string;
  dkim_private_key_sealed: string;
  return_path_name: string;
}

/** Named queries over email.domains; every one is scoped by workspace. */
@Injectable()
export class DomainsRepository {
  /** Reads outside a transaction go to the driver's pg Pool directly (as the realtime apps do). */
  private readonly reads: SqlRunner;

  constructor(@InjectDataSource('email') dataSource: DataSource) {
    this.reads = poolRunner(dataSource);
  }

  /** A page of the workspace's domains, filtered by a name substring, newest first or by name. */
  list(
    workspaceId: string,
    request: ListEmailDomainsRequest,
    cursors: CursorCodec,
  ): Promise<Page<DomainRow>> {
    const params: unknown[] = [workspaceId];
    let where = 'workspace_id = $1';
    const name = request.name?.trim().toLowerCase();
    if (name) {
      params.push(`%${name.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
      where += ' AND domain LIKE $2';
    }
    return paginate<DomainRow>(
      this.reads,
      {
        from: 'email.domains',
        select: COLUMNS,
        where: { sql: where, params },
        filters: { workspaceId, name: name || null },
        sorts: {
          created_at: { column: 'created_at', type: 'timestamptz' },
          name: { column: 'domain', type: 'text' },
        },
        defaultSort: 'created_at',
        defaultOrder: request.sort === 'name' ? 'asc' : 'desc',
        idColumn: 'id',
      },
      request,
      cursors,
    );
  }

  async find(
    workspaceId: string,
    id: string,
    manager: EntityManager | SqlRunner = this.reads,
    lock = false,
  ): Promise<DomainRow | undefined> {
    const rows = rowsOf<DomainRow>(
      await manager.query(
        `SELECT ${COLUMNS} FROM email.domains WHERE workspace_id = $1 AND id = $2${lock ? ' FOR UPDATE' : ''}`,
        [workspaceId, id],
      ),
    );
    return rows[0];
  }

  /** Inserts the domain, or returns undefined when the workspace already has this name. */
  async insert(
    manager: EntityManager,
    domain: {
      id: string;
      workspaceId: string;
      domain: string;
      selector: string;
      keySize: number;
      privateKeySealed: string;
      returnPathName: string;
      records: StoredDnsRecord[];
    },
  ): Promise<DomainRow | undefined> {
    const rows = rowsOf<DomainRow>(
      await manager.query(
        `INSERT INTO email.domains (id, workspace_id, domain, dkim_selector, dkim_key_size, dkim_private_key_sealed, return_path_name, records)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8::jsonb)
         ON CONFLICT (workspace_id, domain) DO NOTHING RETURNING ${COLUMNS}`,
        [
          domain.id,
          domain.workspaceId,
          domain.domain,
          domain.selector,
          domain.keySize,
          domain.privateKeySealed,
          domain.returnPathName,
          JSON.stringify(domain.records),
        ],
      ),
    );
    return rows[0];
  }

  /** A configuration change (settings, return path): `updated_at` moves. */
  async updateConfiguration(
    manager: EntityManager,
    id: string,
    patch: {
      clickTracking: boolean;
      openTracking: boolean;
      returnPathName: string;
      records: StoredDnsRecord[];
    },
  ): Promise<DomainRow> {
    const rows = rowsOf<DomainRow>(
      await manager.query(
        `UPDATE email.domains SET click_tracking = $2, open_tracking = $3, return_path_name = $4, records = $5::jsonb, updated_at = clock_timestamp()
         WHERE id = $1 RETURNING ${COLUMNS}`,
        [
          id,
          patch.clickTracking,
          patch.openTracking,
          patch.returnPathName,
          JSON.stringify(patch.records),
        ],
      ),
    );
    return rows[0];
  }

  /** A verification run's result; `updated_at` stays (it tracks configuration changes). */
  async saveVerification(
    manager: EntityManager,
    id: string,
    result: {
      status: EmailDomainStatus;
      records: StoredDnsRecord[];
      returnPathName: string;
      checkedAt: Date;
      verifiedAt: Date | null;
    },
  ): Promise<DomainRow> {
    const rows = rowsOf<DomainRow>(
      await manager.query(
        `UPDATE email.domains SET status = $2, records = $3::jsonb, return_path_name = $4, last_checked_at = $5, verified_at = COALESCE($6, verified_at)
         WHERE id = $1 RETURNING ${COLUMNS}`,
        [
          id,
          result.status,
          JSON.stringify(result.records),
          result.returnPathName,
          result.checkedAt,
          result.verifiedAt,
        ],
      ),
    );
    return rows[0];
  }

  async delete(manager: EntityManager, workspaceId: string, id: string): Promise<boolean> {
    const rows = rowsOf(
      await manager.query(
        'DELETE FROM email.domains WHERE workspace_id = $1 AND id = $2 RETURNING id',
        [workspaceId, id],
      ),
    );
    return rows.length > 0;
  }

  /**
   * The workspace's domains among `names`, in one query (the send path); on `runner` when the
   * caller is inside a transaction (a second pool connection would be one more to wait for).
   */
  async senders(
    workspaceId: string,
    names: string[],
    runner: SqlRunner = this.reads,
  ): Promise<SenderDomainRow[]> {
    return rowsOf<SenderDomainRow>(
      await runner.query(
        `SELECT id, domain, status, dkim_selector, dkim_private_key_sealed, return_path_name
         FROM email.domains WHERE workspace_id = $1 AND domain = ANY($2::text[])`,
        [workspaceId, names],
      ),
    );
  }
}
