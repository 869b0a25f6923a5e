import { randomBytes } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { RealtimeErrors } from '@switchboard/contracts';
import type {
  CreateRealtimeAppRequest,
  ListRealtimeAppsRequest,
  RealtimeApp,
  RealtimeAppKey,
  RealtimeAppKeyWithSecret,
  RequestContext,
  UpdateRealtimeAppRequest,
} from '@switchboard/contracts';
import { CursorCodec, IdempotentWrites, newId } from '@switchboard/persistence';
import type { Page } from '@switchboard/persistence';
import { AppError, SealedBox, workspaceOf } from '@switchboard/platform';
import type { EntityManager } from 'typeorm';
import { REALTIME_REGIONS } from '../regions/regions';
import { toAppDto, toAppDtos, toKeyDto } from './realtime-app.mapper';
import { RealtimeCluster } from '../data-plane/realtime-cluster';
import { CloseCodes } from '../data-plane/protocol';
import { RealtimeAppsRepository } from './realtime-apps.repository';
import type { AppRow } from './realtime-apps.repository';

/** The realtime control plane: apps and their keys, with the key state machine of the spec. */
@Injectable()
export class RealtimeAppsService {
  constructor(
    private readonly repository: RealtimeAppsRepository,
    private readonly cluster: RealtimeCluster,
    private readonly writes: IdempotentWrites,
    private readonly box: SealedBox,
    private readonly cursors: CursorCodec,
  ) {}

  async create(
    context: RequestContext,
    input: CreateRealtimeAppRequest,
  ): Promise<{ app: RealtimeApp; key: RealtimeAppKeyWithSecret }> {
    const workspaceId = workspaceOf(context);
    if (!REALTIME_REGIONS.some((region) => region.id === input.region)) {
      throw AppError.validation([
        {
          param: 'region',
          message: `must be one of ${REALTIME_REGIONS.map((r) => r.id).join(', ')}`,
        },
      ]);
    }
    return this.writes.run(context, async (manager) => {
      const app = await this.repository.insertApp(manager, {
        id: newId('rap'),
        workspaceId,
        name: input.name,
        region: input.region,
        connectionCounting: input.connection_counting ?? false,
      });
      const key = await this.issueKey(manager, app);
      return { app: toAppDto(app, context.publicOrigin), key };
    });
  }

  async list(context: RequestContext, input: ListRealtimeAppsRequest): Promise<Page<RealtimeApp>> {
    const page = await this.repository.listApps(workspaceOf(context), input, this.cursors);
    return { ...page, data: toAppDtos(page.data, context.publicOrigin) };
  }

  async get(context: RequestContext, appId: string): Promise<RealtimeApp> {
    const app = await this.repository.findApp(workspaceOf(context), appId);
    if (!app) throw new AppError(RealtimeErrors.RealtimeAppNotFound);
    return toAppDto(app, context.publicOrigin);
  }

  /** Keys read before a change of `connection_counting` are read again once it committed. */
  async update(context: RequestContext, input: UpdateRealtimeAppRequest): Promise<RealtimeApp> {
    const workspaceId = workspaceOf(context);
    const updated = await this.writes.run(context, async (manager) => {
      const app = await this.repository.updateApp(manager, workspaceId, input.app_id, {
        name: input.name,
        connectionCounting: input.connection_counting,
      });
      if (!app) throw new AppError(RealtimeErrors.RealtimeAppNotFound);
      return toAppDto(app, context.publicOrigin);
    });
    if (input.connection_counting !== undefined)
      await this.cluster.send({ kind: 'app-changed', appId: input.app_id });
    return updated;
  }

  /** Deleting an app closes its connections once the delete committed. */
  async remove(context: RequestContext, appId: string): Promise<null> {
    const workspaceId = workspaceOf(context);
    const answer = await this.writes.run(context, async (manager) => {
      if (!(await this.repository.deleteApp(manager, workspaceId, appId)))
        throw new AppError(RealtimeErrors.RealtimeAppNotFound);
      return null;
    });
    await this.cluster.send({ kind: 'close-app', appId });
    return answer;
  }

  async createKey(context: RequestContext, appId: string): Promise<RealtimeAppKeyWithSecret> {
    const workspaceId = workspaceOf(context);
    return this.writes.run(context, async (manager) => {
      const app = await this.repository.findApp(workspaceId, appId, manager);
      if (!app) throw new AppError(RealtimeErrors.RealtimeAppNotFound);
      return this.issueKey(manager, app);
    });
  }

  async listKeys(
    context: RequestContext,
    appId: string,
    includeRevoked: boolean,
  ): Promise<{ data: RealtimeAppKey[] }> {
    const workspaceId = workspaceOf(context);
    if (!(await this.repository.findApp(workspaceId, appId)))
      throw new AppError(RealtimeErrors.RealtimeAppNotFound);
    const keys = await this.repository.listKeys(workspaceId, appId, includeRevoked);
    return { data: keys.map(toKeyDto) };
  }

  /**
   * active -> revoked, once; never the app's last active key. The app row lock serialises
   * revokes. Once committed, the key leaves every process's key cache and the connections it
   * opened are closed, before the answer (on other processes, as the cluster's command arrives).
   */
  async revokeKey(context: RequestContext, appId: string, keyId: string): Promise<RealtimeAppKey> {
    const revoked = await this.revoke(context, appId, keyId);
    await this.cluster.send({
      kind: 'close-key',
      keyId,
      code: CloseCodes.KeyRefused,
      reason: 'the app key was revoked',
    });
    return revoked;
  }

  private revoke(context: RequestContext, appId: string, keyId: string): Promise<RealtimeAppKey> {
    const workspaceId = workspaceOf(context);
    return this.writes.run(context, async (manager) => {
      const app = await this.repository.findApp(workspaceId, appId, manager, true);
      if (!app) throw new AppError(RealtimeErrors.RealtimeAppNotFound);
      const key = await this.repository.findKey(manager, workspaceId, appId, keyId);
      if (!key) throw new AppError(RealtimeErrors.RealtimeKeyNotFound);
      if (key.revoked_at) throw new AppError(RealtimeErrors.KeyAlreadyRevoked);
      if ((await this.repository.countActiveKeys(manager, appId)) <= 1)
        throw new AppError(RealtimeErrors.LastActiveKey);
      return toKeyDto(await this.repository.revokeKey(manager, keyId));
    });
  }

  private async issueKey(manager: EntityManager, app: AppRow): Promise<RealtimeAppKeyWithSecret> {
    const secret = randomBytes(32).toString('hex');
    const key = await this.repository.insertKey(manager, {
      id: newId('rak'),
      appId: app.id,
      workspaceId: app.workspace_id,
      secretSealed: this.box.seal(secret),
    });
    return { ...toKeyDto(key), secret };
  }
}
