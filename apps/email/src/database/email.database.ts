import type { ServiceDatabase } from '@switchboard/persistence';
import { returnPathTarget } from '../config/email.config';
import type { EmailConfig } from '../config/email.config';
import { CreateEmailSchema1763800000100 } from './migrations/1763800000100-create-email-schema';
import { CreateEmailQueueAndOutbox1764000000050 } from './migrations/1764000000050-create-email-queue-and-outbox';
import { CreateEmailDomains1764000000100 } from './migrations/1764000000100-create-email-domains';
import { CreateEmailSuppressions1764000000200 } from './migrations/1764000000200-create-email-suppressions';
import { CreateEmailMessages1764000000300 } from './migrations/1764000000300-create-email-messages';
import { returnPathCnameMigration } from './migrations/1764000000400-return-path-cname';
import { WorkQueueOwner1764000000470 } from './migrations/1764000000470-work-queue-owner';
import { CreateEmailPreferenceStates1764800000100 } from './migrations/1764800000100-create-email-preference-states';
import { MessageOrigins1764900000050 } from './migrations/1764900000050-message-origins';
import { Engagement1764900000060 } from './migrations/1764900000060-engagement';
import { MessageEngagementCounts1764900000300 } from './migrations/1764900000300-message-engagement-counts';
import { CreateEmailTemplates1764900000100 } from './migrations/1764900000100-create-email-templates';
import { CreateEmailBroadcasts1764900000200 } from './migrations/1764900000200-create-email-broadcasts';
import { CreateEmailStatsRollups1764900000400 } from './migrations/1764900000400-create-email-stats-rollups';
import { TemplatePinGuard1764900000900 } from './migrations/1764900000900-template-pin-guard';
import { MailboxProviderOf1764900001000 } from './migrations/1764900001000-mailbox-provider-of';
import { MailClientOf1764900001100 } from './migrations/1764900001100-mail-client-of';
import { BroadcastTemplateSnapshot1764900001200 } from './migrations/1764900001200-broadcast-template-snapshot';

export function emailDatabase(config: EmailConfig): ServiceDatabase {
  return {
    schema: 'email',
    url: config.DATABASE_URL,
    poolSize: config.DATABASE_POOL_SIZE,
    entities: [],
    migrations: [
      CreateEmailSchema1763800000100,
      CreateEmailQueueAndOutbox1764000000050,
      CreateEmailDomains1764000000100,
      CreateEmailSuppressions1764000000200,
      CreateEmailMessages1764000000300,
      returnPathCnameMigration(() => returnPathTarget(config)),
      WorkQueueOwner1764000000470,
      CreateEmailPreferenceStates1764800000100,
      MessageOrigins1764900000050,
      Engagement1764900000060,
      CreateEmailTemplates1764900000100,
      CreateEmailBroadcasts1764900000200,
      MessageEngagementCounts1764900000300,
      CreateEmailStatsRollups1764900000400,
      TemplatePinGuard1764900000900,
      MailboxProviderOf1764900001000,
      MailClientOf1764900001100,
      BroadcastTemplateSnapshot1764900001200,
    ],
  };
}
