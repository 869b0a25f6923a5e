import type { ServiceDatabase } from '@switchboard/persistence';
import type { ConversationsConnectorsConfig } from '../config/conversations-connectors.config';
import { CreateConversationsConnectorsSchema1763800000600 } from './migrations/1763800000600-create-conversations-connectors-schema';

export function conversationsConnectorsDatabase(
  config: ConversationsConnectorsConfig,
): ServiceDatabase {
  return {
    schema: 'conversations_connectors',
    url: config.DATABASE_URL,
    poolSize: config.DATABASE_POOL_SIZE,
    entities: [],
    migrations: [CreateConversationsConnectorsSchema1763800000600],
  };
}
