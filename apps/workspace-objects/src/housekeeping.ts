import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { purgeIdempotencyRecords } from '@switchboard/persistence';
import { PeriodicJob } from '@switchboard/platform';
import { DataSource } from 'typeorm';
import { WORKSPACE_OBJECTS_CONFIG } from './config/workspace-objects.config';
import type { WorkspaceObjectsConfig } from './config/workspace-objects.config';

/** Deletes the service's idempotency records past their retention, every ten minutes. */
@Injectable()
export class IdempotencyPurger extends PeriodicJob {
  protected readonly everyMs = 10 * 60_000;

  constructor(
    @Inject(WORKSPACE_OBJECTS_CONFIG) private readonly config: WorkspaceObjectsConfig,
    @InjectDataSource('workspace_objects') private readonly dataSource: DataSource,
  ) {
    super();
  }

  protected work(): Promise<number> {
    return purgeIdempotencyRecords(
      this.dataSource,
      'workspace_objects',
      this.config.IDEMPOTENCY_TTL_HOURS,
    );
  }
}
