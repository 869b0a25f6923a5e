import { Module } from '@nestjs/common';
import { BroadcastsController } from './broadcasts.controller';
import { DomainsController } from './domains.controller';
import { MessagesController } from './messages.controller';
import { OnboardingRecipients } from './onboarding-recipients';
import { SuppressionsController } from './suppressions.controller';
/** Email messages, sending domains and suppressions, answered by the email service. */
@Module({
  controllers: [
    SuppressionsController,
    DomainsController,
    MessagesController,
    BroadcastsController,
  ],
  providers: [OnboardingRecipients],
})
export class EmailApiModule {}
