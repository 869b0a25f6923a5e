import { Controller } from '@nestjs/common';
import { Ctx, Payload } from '@nestjs/microservices';
import type { BaseRpcContext } from '@nestjs/microservices';
import { RealtimeSubjects } from '@switchboard/contracts';
import type {
  CreateRealtimeAppRequest,
  ListRealtimeAppsRequest,
  RealtimeRegion,
  UpdateRealtimeAppRequest,
} from '@switchboard/contracts';
import { Handles, requestContextOf } from '@switchboard/platform';
import { REALTIME_REGIONS } from '../regions/regions';
import { RealtimeAppsService } from './realtime-apps.service';

/** Transport handlers of the realtime control plane; the gateway has validated every payload. */
@Controller()
export class RealtimeAppsHandler {
  constructor(private readonly apps: RealtimeAppsService) {}

  @Handles(RealtimeSubjects.ListRegions)
  regions(): { data: RealtimeRegion[] } {
    return { data: REALTIME_REGIONS };
  }

  @Handles(RealtimeSubjects.CreateApp)
  create(@Payload() input: CreateRealtimeAppRequest, @Ctx() context: BaseRpcContext) {
    return this.apps.create(requestContextOf(context), input);
  }

  @Handles(RealtimeSubjects.ListApps)
  list(@Payload() input: ListRealtimeAppsRequest, @Ctx() context: BaseRpcContext) {
    return this.apps.list(requestContextOf(context), input);
  }

  @Handles(RealtimeSubjects.GetApp)
  get(@Payload() input: { app_id: string }, @Ctx() context: BaseRpcContext) {
    return this.apps.get(requestContextOf(context), input.app_id);
  }

  @Handles(RealtimeSubjects.UpdateApp)
  update(@Payload() input: UpdateRealtimeAppRequest, @Ctx() context: BaseRpcContext) {
    return this.apps.update(requestContextOf(context), input);
  }

  @Handles(RealtimeSubjects.DeleteApp)
  remove(@Payload() input: { app_id: string }, @Ctx() context: BaseRpcContext) {
    return this.apps.remove(requestContextOf(context), input.app_id);
  }

  @Handles(RealtimeSubjects.CreateKey)
  createKey(@Payload() input: { app_id: string }, @Ctx() context: BaseRpcContext) {
    return this.apps.createKey(requestContextOf(context), input.app_id);
  }

  @Handles(RealtimeSubjects.ListKeys)
  listKeys(
    @Payload() input: { app_id: string; include_revoked: boolean },
    @Ctx() context: BaseRpcContext,
  ) {
    return this.apps.listKeys(requestContextOf(context), input.app_id, input.include_revoked);
  }

  @Handles(RealtimeSubjects.RevokeKey)
  revokeKey(@Payload() input: { app_id: string; key_id: string }, @Ctx() context: BaseRpcContext) {
    return this.apps.revokeKey(requestContextOf(context), input.app_id, input.key_id);
  }
}
