import { Module } from '@nestjs/common';
import { DomainsModule } from '../domains';
import { SuppressionsModule } from '../suppressions';
import { DeliverMessageWorker } from './deliver-message.worker';
import { DeliveryRunner } from './delivery.runner';
import { ProcessMessageWorker } from './process-message.worker';
import { mailTransportProvider } from './transport';

/** Processing and delivery of accepted messages: the queues, the workers and the SMTP transport. */
@Module({
  imports: [DomainsModule, SuppressionsModule],
  providers: [mailTransportProvider, ProcessMessageWorker, DeliverMessageWorker, DeliveryRunner],
})
export class DeliveryModule {}
