export { DomainsModule } from './domains.module';
export { SendingDomainsService } from './sending-domains.service';
export type { SenderDomain } from './sending-domains.service';
