import { Injectable } from '@nestjs/common';
import type { SqlRunner } from '@switchboard/persistence';
import { SealedBox } from '@switchboard/platform';
import { DomainsRepository } from './domains.repository';

/** A workspace's sending domain as the message pipeline needs it. */
export interface SenderDomain {
  id: string;
  /** Lowercase domain name, the key of `sendersFor`'s map. */
  domain: string;
  /** `pending`, `verified`, `failed`, `temporary_failure` or `rejected`. */
  status: string;
  /** Only a verified domain may send: DKIM, return path and DMARC all matched. */
  verified: boolean;
  /** Sign with `d=` the domain, `s=` this selector, this key (PEM, PKCS#8, unsealed). */
  dkim: { selector: string; privateKey: string };
  /** Host of the envelope sender (MAIL FROM), e.g. `send.mail.example.com`. */
  returnPath: string;
}

/**
 * The send path's view of sending domains: which of the names a message uses the workspace has
 * registered, whether each is verified, and how to sign for it. A deleted domain is simply absent.
 */
@Injectable()
export class SendingDomainsService {
  constructor(
    private readonly repository: DomainsRepository,
    private readonly box: SealedBox,
  ) {}

  /** The workspace's domains among `domains` (any case), by lowercase name, in one query. */
  async sendersFor(
    workspaceId: string,
    domains: string[],
    runner?: SqlRunner,
  ): Promise<Map<string, SenderDomain>> {
    const names = [...new Set(domains.map((name) => name.trim().toLowerCase()))];
    const senders = new Map<string, SenderDomain>();
    if (names.length === 0) return senders;
    for (const row of await this.repository.senders(workspaceId, names, runner)) {
      senders.set(row.domain, {
        id: row.id,
        domain: row.domain,
        status: row.status,
        verified: row.status === 'verified',
        dkim: {
          selector: row.dkim_selector,
          privateKey: this.box.open(row.dkim_private_key_sealed),
        },
        returnPath: `${row.return_path_name}.${row.domain}`,
      });
    }
    return senders;
  }
}
