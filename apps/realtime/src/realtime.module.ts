import type { DynamicModule } from '@nestjs/common';
import { Module } from '@nestjs/common';
import { ServiceDataModule } from '@switchboard/persistence';
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
        ServiceDataModule.forService({
          database: realtimeDatabase(config),
          health: 'realtime',
          storage: config,
        }),
        DataPlaneModule.register(config),
        RealtimeAppsModule,
      ],
    };
  }
}
