import { Module } from '@nestjs/common';
import { DomainDnsChecker } from './domain-dns-checker';
import { DomainsHandler } from './domains.handler';
import { DomainsRepository } from './domains.repository';
import { DomainsService } from './domains.service';
import { SendingDomainsService } from './sending-domains.service';

/**
 * Sending domains. Exports `SendingDomainsService` for the message pipeline; needs `EMAIL_CONFIG`
 * (global in the email service) and the `email` data source.
 */
@Module({
  controllers: [DomainsHandler],
  providers: [DomainsRepository, DomainDnsChecker, DomainsService, SendingDomainsService],
  exports: [SendingDomainsService],
})
export class DomainsModule {}
