import { Module } from '@nestjs/common';
import { idempotencyPurgerProvider } from '@switchboard/persistence';
import type { DynamicModule } from '@nestjs/common';
import { REALTIME_CONFIG } from '../config/realtime.config';
import type { RealtimeConfig } from '../config/realtime.config';
import { RealtimeAppsHandler } from './realtime-apps.handler';
import { RealtimeAppsRepository } from './realtime-apps.repository';
import { RealtimeAppsService } from './realtime-apps.service';

@Module({})
export class RealtimeAppsModule {
  static register(config: RealtimeConfig): DynamicModule {
    return {
      module: RealtimeAppsModule,
      controllers: [RealtimeAppsHandler],
      providers: [
        { provide: REALTIME_CONFIG, useValue: config },
        RealtimeAppsRepository,
        RealtimeAppsService,
        idempotencyPurgerProvider('realtime', config.IDEMPOTENCY_TTL_HOURS),
      ],
    };
  }
}
