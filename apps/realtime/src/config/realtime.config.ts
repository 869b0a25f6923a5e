import { storageEnv } from '@switchboard/persistence';
import { env, serviceEnv } from '@switchboard/platform';
import type { ConfigOf } from '@switchboard/platform';

export const realtimeEnv = {
  ...serviceEnv,
  ...storageEnv,
  REALTIME_CLIENT_PORT: env.int({
    default: 8090,
    min: 0,
    max: 65535,
    description:
      'distributed mode: the port realtime clients connect to (/app/{key}, /realtime/socket.io); the embedded default serves them on the API port',
  }),
  REALTIME_PEER_TIMEOUT_SECONDS: env.int({
    default: 15,
    min: 1,
    max: 120,
    description:
      'distributed mode: a realtime process not heard from for this long is taken as gone, and its presence members leave (heartbeats every third of it)',
  }),
};
export type RealtimeConfig = ConfigOf<typeof realtimeEnv>;
export const REALTIME_CONFIG = Symbol('REALTIME_CONFIG');
