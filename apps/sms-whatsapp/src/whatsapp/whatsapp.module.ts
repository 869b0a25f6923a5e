import { Module } from '@nestjs/common';

/** WhatsApp over Meta's Cloud API, the request side: each area's module is imported here. */
@Module({
  imports: [],
})
export class WhatsAppModule {}
