import { Module } from '@nestjs/common';
import { WebhooksController } from './webhooks.controller';
/** Webhook endpoints, answered by the webhooks service. */
@Module({ controllers: [WebhooksController] })
export class WebhooksApiModule {}
