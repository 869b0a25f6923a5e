import { Module } from '@nestjs/common';
import { DomainsModule } from '../domains';
import { PublishedTemplatesModule } from '../templates';
import { AcceptRepository } from './accept/accept.repository';
import { SendService } from './accept/send.service';
import { TemplateSends } from './accept/template-sends';
import { ContentsRepository } from './contents.repository';
import { EmailEventsRepository } from './email-events.repository';
import { MessagesHandler } from './messages.handler';
import { MessagesRepository } from './messages.repository';
import { MessagesService } from './messages.service';

/**
 * Email messages: send and batch (accept), reads, recipients, events, content, cancel. Delivery
 * records events and drops contents through the repositories it exports. The relay of their
 * events and the expiry of contents are background work (EmailBackgroundModule).
 */
@Module({
  imports: [DomainsModule, PublishedTemplatesModule],
  controllers: [MessagesHandler],
  providers: [
    SendService,
    TemplateSends,
    AcceptRepository,
    MessagesService,
    MessagesRepository,
    ContentsRepository,
    EmailEventsRepository,
  ],
  exports: [ContentsRepository, EmailEventsRepository],
})
export class MessagesModule {}
