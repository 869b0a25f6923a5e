import { Controller, Delete, Get, HttpCode, Inject, Param, Patch, Post } from '@nestjs/common';
import { CommonErrors, RealtimeSubjects } from '@switchboard/contracts';
import type {
  RealtimeApp,
  RealtimeAppKey,
  RealtimeAppKeyWithSecret,
  RealtimeRegion,
  RequestContext,
} from '@switchboard/contracts';
import { AppError, ServiceClient } from '@switchboard/platform';
import { CallContext, ValidBody, ValidQuery } from '../../pipeline/auth/caller';
import { Route } from '../../pipeline/routes/route-policy';
import { SERVICE_CLIENT } from '../../pipeline/service-client.provider';
import {
  CreateRealtimeAppDto,
  ListRealtimeAppsQuery,
  ListRealtimeKeysQuery,
  UpdateRealtimeAppDto,
} from './realtime-apps.dto';

const realtime = { tag: 'Realtime apps', auth: 'api' } as const;

/** The realtime control plane (spec: Realtime apps), answered by the realtime service. */
@Controller('v1/realtime')
export class RealtimeAppsController {
  constructor(@Inject(SERVICE_CLIENT) private readonly services: ServiceClient) {}

  @Get('regions')
  @Route({
    ...realtime,
    summary: 'List the regions an app can be created in',
    role: 'read',
    rateLimit: 'read',
    response: { status: 200, description: '{data: [{id, name}]}' },
  })
  regions(@CallContext() context: RequestContext): Promise<{ data: RealtimeRegion[] }> {
    return this.services.send(RealtimeSubjects.ListRegions, {}, context);
  }

  @Post('apps')
  @HttpCode(201)
  @Route({
    ...realtime,
    summary: 'Create a realtime app and its first key (secret shown once)',
    role: 'admin',
    rateLimit: 'write',
    body: CreateRealtimeAppDto,
    response: { status: 201, description: '{app, key} with the one-time key secret' },
  })
  create(
    @ValidBody() body: CreateRealtimeAppDto,
    @CallContext() context: RequestContext,
  ): Promise<{ app: RealtimeApp; key: RealtimeAppKeyWithSecret }> {
    return this.services.send(RealtimeSubjects.CreateApp, body, context);
  }

  @Get('apps')
  @Route({
    ...realtime,
    summary: 'List realtime apps (name filter, sort, cursor pagination)',
    role: 'read',
    rateLimit: 'api_list',
    paginated: true,
    query: ListRealtimeAppsQuery,
    response: { status: 200, description: 'A page of apps' },
  })
  list(@ValidQuery() query: ListRealtimeAppsQuery, @CallContext() context: RequestContext) {
    return this.services.send(RealtimeSubjects.ListApps, { ...query }, context);
  }

  @Get('apps/:realtime_app_id')
  @Route({
    ...realtime,
    summary: 'Get a realtime app',
    role: 'read',
    rateLimit: 'read',
    response: { status: 200, description: 'The app' },
  })
  get(
    @Param('realtime_app_id') appId: string,
    @CallContext() context: RequestContext,
  ): Promise<RealtimeApp> {
    return this.services.send(RealtimeSubjects.GetApp, { app_id: appId }, context);
  }

  @Patch('apps/:realtime_app_id')
  @Route({
    ...realtime,
    summary: 'Update an app name and flags (region is immutable, TLS always enforced)',
    role: 'admin',
    rateLimit: 'write',
    body: UpdateRealtimeAppDto,
    response: { status: 200, description: 'The app' },
  })
  update(
    @Param('realtime_app_id') appId: string,
    @ValidBody() body: UpdateRealtimeAppDto,
    @CallContext() context: RequestContext,
  ): Promise<RealtimeApp> {
    const immutable = [];
    if (body.region !== undefined)
      immutable.push({ param: 'region', message: 'region is fixed when the app is created' });
    if (body.tls_enforced === false)
      immutable.push({ param: 'tls_enforced', message: 'TLS is always enforced' });
    if (immutable.length) throw new AppError(CommonErrors.ImmutableField, { details: immutable });
    return this.services.send(
      RealtimeSubjects.UpdateApp,
      { app_id: appId, name: body.name, connection_counting: body.connection_counting },
      context,
    );
  }

  @Delete('apps/:realtime_app_id')
  @HttpCode(204)
  @Route({
    ...realtime,
    summary: 'Delete an app, its keys and configuration',
    role: 'admin',
    rateLimit: 'write',
    response: { status: 204, description: 'Deleted' },
  })
  async remove(
    @Param('realtime_app_id') appId: string,
    @CallContext() context: RequestContext,
  ): Promise<void> {
    await this.services.send(RealtimeSubjects.DeleteApp, { app_id: appId }, context);
  }

  @Get('apps/:realtime_app_id/keys')
  @Route({
    ...realtime,
    summary: "List an app's keys, oldest first, without secrets",
    role: 'read',
    rateLimit: 'api_list',
    query: ListRealtimeKeysQuery,
    response: { status: 200, description: '{data: [key]}' },
  })
  listKeys(
    @Param('realtime_app_id') appId: string,
    @ValidQuery() query: ListRealtimeKeysQuery,
    @CallContext() context: RequestContext,
  ): Promise<{ data: RealtimeAppKey[] }> {
    return this.services.send(
      RealtimeSubjects.ListKeys,
      { app_id: appId, include_revoked: query.include_revoked },
      context,
    );
  }

  @Post('apps/:realtime_app_id/keys')
  @HttpCode(201)
  @Route({
    ...realtime,
    summary: 'Create a key (secret shown once)',
    role: 'admin',
    rateLimit: 'write',
    response: { status: 201, description: 'The key with its one-time secret' },
  })
  createKey(
    @Param('realtime_app_id') appId: string,
    @CallContext() context: RequestContext,
  ): Promise<RealtimeAppKeyWithSecret> {
    return this.services.send(RealtimeSubjects.CreateKey, { app_id: appId }, context);
  }

  @Post('apps/:realtime_app_id/keys/:realtime_app_key_id/revoke')
  @HttpCode(200)
  @Route({
    ...realtime,
    summary: 'Revoke a key (409 if already revoked, 422 if it is the only active key)',
    role: 'admin',
    rateLimit: 'write',
    response: { status: 200, description: 'The key with revoked_at' },
  })
  revokeKey(
    @Param('realtime_app_id') appId: string,
    @Param('realtime_app_key_id') keyId: string,
    @CallContext() context: RequestContext,
  ): Promise<RealtimeAppKey> {
    return this.services.send(
      RealtimeSubjects.RevokeKey,
      { app_id: appId, key_id: keyId },
      context,
    );
  }
}
