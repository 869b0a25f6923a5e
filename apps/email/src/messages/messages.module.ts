import { Module } from '@nestjs/common';
import { DomainsModule } from '../domains';
import { SendService } from './accept/send.service';
import { EmailEventsRelay } from './events-relay';
import { ContentExpiry } from './housekeeping';
import { MessagesHandler } from './messages.handler';
import { MessagesRepository } from './messages.repository';
import { MessagesService } from './messages.service';

/** Email messages: send and batch (accept), reads, recipients, events, content, cancel. */
@Module({
  imports: [DomainsModule],
  controllers: [MessagesHandler],
  providers: [SendService, MessagesService, MessagesRepository, ContentExpiry, EmailEventsRelay],
})
export class MessagesModule {}
