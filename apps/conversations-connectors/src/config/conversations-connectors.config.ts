import { databaseEnv } from '@switchboard/persistence';
import { serviceEnv } from '@switchboard/platform';
import type { ConfigOf } from '@switchboard/platform';

export const conversationsConnectorsEnv = { ...serviceEnv, ...databaseEnv };
export type ConversationsConnectorsConfig = ConfigOf<typeof conversationsConnectorsEnv>;
