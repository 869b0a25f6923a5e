import { Module } from '@nestjs/common';
import { RealtimeAppsController } from './realtime-apps.controller';
import { RealtimeEventsController } from './realtime-events.controller';
/** Realtime apps, keys and the REST data plane, answered by the realtime service. */
@Module({ controllers: [RealtimeAppsController, RealtimeEventsController] })
export class RealtimeApiModule {}
