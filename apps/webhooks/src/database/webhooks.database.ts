import type { ServiceDatabase } from '@switchboard/persistence';
import type { WebhooksConfig } from '../config/webhooks.config';
import { CreateWebhooksSchema1764100000100 } from './migrations/1764100000100-create-webhooks-schema';
import { WorkQueueOwner1764100000170 } from './migrations/1764100000170-work-queue-owner';
import { RoomForUpdates1764100000180 } from './migrations/1764100000180-room-for-updates';
import { AttemptsGoWithTheirDelivery1764100000190 } from './migrations/1764100000190-attempts-go-with-their-delivery';
import { DeliveriesWrittenLighter1764100000200 } from './migrations/1764100000200-deliveries-written-lighter';

export function webhooksDatabase(config: WebhooksConfig): ServiceDatabase {
  return {
    schema: 'webhooks',
    url: config.DATABASE_URL,
    poolSize: config.DATABASE_POOL_SIZE,
    entities: [],
    migrations: [
      CreateWebhooksSchema1764100000100,
      WorkQueueOwner1764100000170,
      RoomForUpdates1764100000180,
      AttemptsGoWithTheirDelivery1764100000190,
      DeliveriesWrittenLighter1764100000200,
    ],
  };
}
