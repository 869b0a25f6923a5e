import type { DynamicModule } from '@nestjs/common';
import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { databaseReadiness, serviceTypeOrmOptions } from '@switchboard/persistence';
import { ServiceHealthModule } from '@switchboard/platform';
import type { RealtimeConfig } from './config/realtime.config';
import { realtimeDatabase } from './database/realtime.database';
import { RealtimeAppsModule } from './apps/realtime-apps.module';
import { DataPlaneModule } from './data-plane/data-plane.module';

/** The realtime service: realtime apps, keys, channels and client connections. */
@Module({})
export class RealtimeModule {
  static register(config: RealtimeConfig): DynamicModule {
    return {
      module: RealtimeModule,
      imports: [
        TypeOrmModule.forRoot(serviceTypeOrmOptions(realtimeDatabase(config))),
        ServiceHealthModule.forService('realtime', databaseReadiness('realtime')),
        DataPlaneModule.register(config),
        RealtimeAppsModule.register(config),
      ],
    };
  }
}
