import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { RequestContext } from '@switchboard/contracts';
import { CursorCodec, idempotencyScope, idempotentWrite } from '@switchboard/persistence';
import type { SqlRunner } from '@switchboard/persistence';
import { SealedBox } from '@switchboard/platform';
import { DataSource } from 'typeorm';
import { WORKSPACE_OBJECTS_CONFIG } from '../config/workspace-objects.config';
import type { WorkspaceObjectsConfig } from '../config/workspace-objects.config';

/**
 * What every write and list of the service shares: a write is one transaction that claims its
 * Idempotency-Key (a retry replays the first reply), and list cursors are signed and expire.
 */
@Injectable()
export class Writes {
  readonly cursors: CursorCodec;
  private readonly box: SealedBox;

  constructor(
    @Inject(WORKSPACE_OBJECTS_CONFIG) config: WorkspaceObjectsConfig,
    @InjectDataSource('workspace_objects') private readonly dataSource: DataSource,
  ) {
    this.box = new SealedBox(config.ENCRYPTION_KEY);
    this.cursors = new CursorCodec(
      `cursor:${config.ENCRYPTION_KEY}`,
      config.CURSOR_TTL_HOURS * 3_600_000,
    );
  }

  once<T>(context: RequestContext, write: (runner: SqlRunner) => Promise<T>): Promise<T> {
    return idempotentWrite(
      this.dataSource,
      'workspace_objects',
      idempotencyScope(context),
      this.box,
      write,
    );
  }
}
