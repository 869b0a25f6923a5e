// What the messages area uses of inbound media: the `url` an inbound message's media reads with.
export { inboundMediaIdOf, withInboundMediaUrl } from './inbound-media-url';
export { InboundMediaUrls } from './inbound-media-urls';
export { WhatsAppMediaModule } from './whatsapp-media.module';
