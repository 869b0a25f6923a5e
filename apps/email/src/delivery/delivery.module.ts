import { Module } from '@nestjs/common';
import { DomainsModule } from '../domains';
import { MessagesModule } from '../messages';
import { SuppressionsModule } from '../suppressions';
import { TrackingLinks } from '../tracking/tracking-links';
import { DeliveryRepository } from './delivery.repository';
import { DeliveryRunner } from './delivery.runner';
import { DeliveryService } from './delivery.service';
import { ProcessingService } from './processing.service';
import { mailTransportProvider } from './transport';

/**
 * Processing and delivery of accepted messages: the queues (`DeliveryRunner`), the rules of
 * processing and of delivery outcomes, and the mail transport the configuration picks.
 */
@Module({
  imports: [DomainsModule, SuppressionsModule, MessagesModule],
  providers: [
    mailTransportProvider,
    DeliveryRepository,
    ProcessingService,
    DeliveryService,
    DeliveryRunner,
    TrackingLinks,
  ],
})
export class DeliveryModule {}
