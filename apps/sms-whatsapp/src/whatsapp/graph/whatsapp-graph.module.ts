import { Module } from '@nestjs/common';
import { HttpWhatsAppGraph } from './http-whatsapp-graph';
import { WHATSAPP_GRAPH } from './whatsapp-graph';

/**
 * `WHATSAPP_GRAPH`: Meta's Graph API over HTTP. Each area that calls Meta imports this module
 * (request side and background side alike); the client holds no connections of its own beyond
 * the process-wide fetch pool, so one instance per importing module is harmless, but the
 * per-number throughput is counted per instance: senders share the background module's one.
 */
@Module({
  providers: [{ provide: WHATSAPP_GRAPH, useClass: HttpWhatsAppGraph }],
  exports: [WHATSAPP_GRAPH],
})
export class WhatsAppGraphModule {}
