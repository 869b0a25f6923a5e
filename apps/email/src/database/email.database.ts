import type { ServiceDatabase } from '@switchboard/persistence';
import type { EmailConfig } from '../config/email.config';
import { CreateEmailSchema1763800000100 } from './migrations/1763800000100-create-email-schema';
import { CreateEmailDomains1764000000100 } from './migrations/1764000000100-create-email-domains';
import { CreateEmailSuppressions1764000000200 } from './migrations/1764000000200-create-email-suppressions';

export function emailDatabase(config: EmailConfig): ServiceDatabase {
  return {
    schema: 'email',
    url: config.DATABASE_URL,
    poolSize: config.DATABASE_POOL_SIZE,
    entities: [],
    migrations: [
      CreateEmailSchema1763800000100,
      CreateEmailDomains1764000000100,
      CreateEmailSuppressions1764000000200,
    ],
  };
}
