export { BroadcastsModule } from './broadcasts.module';
export { BroadcastsService, BROADCAST_QUEUE } from './broadcasts.service';
export { BroadcastInsightsService } from './broadcast-insights.service';
