import { Module } from '@nestjs/common';
import { RealtimeAppsHandler } from './realtime-apps.handler';
import { RealtimeAppsRepository } from './realtime-apps.repository';
import { RealtimeAppsService } from './realtime-apps.service';

@Module({
  controllers: [RealtimeAppsHandler],
  providers: [RealtimeAppsRepository, RealtimeAppsService],
})
export class RealtimeAppsModule {}
