import { serviceEnv } from '@switchboard/platform';
import type { ConfigOf } from '@switchboard/platform';

export const conversationsConnectorsEnv = { ...serviceEnv };
export type ConversationsConnectorsConfig = ConfigOf<typeof conversationsConnectorsEnv>;
