import { serviceEnv } from '@switchboard/platform';
import type { ConfigOf } from '@switchboard/platform';

export const realtimeEnv = { ...serviceEnv };
export type RealtimeConfig = ConfigOf<typeof realtimeEnv>;
