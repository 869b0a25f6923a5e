import { Module } from '@nestjs/common';
import { BroadcastsController } from './broadcasts.controller';
import { DomainsController } from './domains.controller';
import { MessagesController } from './messages.controller';
import { OnboardingRecipients } from './onboarding-recipients';
import { SuppressionsController } from './suppressions.controller';
import { TemplateBroadcastsController } from './template-broadcasts.controller';
import { EmailTemplateVersionsController } from './template-versions.controller';
import { EmailTemplatesController } from './templates.controller';
/** Email messages, sending domains and suppressions, answered by the email service. */
@Module({
  controllers: [
    SuppressionsController,
    DomainsController,
    MessagesController,
    BroadcastsController,
    TemplateBroadcastsController,
    EmailTemplatesController,
    EmailTemplateVersionsController,
  ],
  providers: [OnboardingRecipients],
})
export class EmailApiModule {}
