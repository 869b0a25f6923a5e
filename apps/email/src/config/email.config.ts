import { serviceEnv } from '@switchboard/platform';
import type { ConfigOf } from '@switchboard/platform';

export const emailEnv = { ...serviceEnv };
export type EmailConfig = ConfigOf<typeof emailEnv>;
