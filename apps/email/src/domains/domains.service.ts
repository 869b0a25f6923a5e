import { generateKeyPair, randomBytes } from 'node:crypto';
import { promisify } from 'node:util';
import { Inject, Injectable } from '@nestjs/common';
import { CommonErrors, EmailErrors } from '@switchboard/contracts';
import type {
  CreateEmailDomainRequest,
  EmailDomain,
  EmailDomainFailedEvent,
  EmailDomainVerifiedEvent,
  ErrorDetail,
  ListEmailDomainsRequest,
  RequestContext,
  UpdateEmailDomainRequest,
} from '@switchboard/contracts';
import { CursorCodec, IdempotentWrites, newId } from '@switchboard/persistence';
import { writeOutboxEvents } from '@switchboard/background';
import type { Page } from '@switchboard/persistence';
import { AppError, SealedBox, workspaceOf } from '@switchboard/platform';
import type { EntityManager } from 'typeorm';
import { EMAIL_CONFIG, returnPathTarget } from '../config/email.config';
import type { EmailConfig } from '../config/email.config';
import { DomainDnsChecker } from './domain-dns-checker';
import { isWithin, normalizeDomainName, normalizeReturnPathName } from './domain-name';
import {
  applyVerification,
  buildRecords,
  DEFAULT_RETURN_PATH_NAME,
  returnPathRecord,
} from './domain-records';
import type { StoredDnsRecord } from './domain-records';
import { toDomainDto } from './domain.mapper';
import { DomainsRepository } from './domains.repository';

const generateKeyPairAsync = promisify(generateKeyPair);

const DKIM_KEY_SIZE = 2048;
const SELECTOR_ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz';

/** A DKIM selector: `sb` and six random characters, new for every domain (and so every key). */
function newSelector(): string {
  const bytes = randomBytes(6);
  let suffix = '';
  for (const byte of bytes) suffix += SELECTOR_ALPHABET[byte % 32];
  return `sb${suffix}`;
}

/** Sending domains: registration with a DKIM key, the records to publish, DNS verification. */
@Injectable()
export class DomainsService {
  /** Where every return-path CNAME points (EMAIL_RETURN_PATH_TARGET or the EHLO name). */
  private readonly returnPathTarget: string;

  /** Its writes wake the outbox relay (the email service's `IdempotentWrites` do after each). */
  constructor(
    @Inject(EMAIL_CONFIG) private readonly config: EmailConfig,
    private readonly repository: DomainsRepository,
    private readonly dns: DomainDnsChecker,
    private readonly writes: IdempotentWrites,
    private readonly box: SealedBox,
    private readonly cursors: CursorCodec,
  ) {
    this.returnPathTarget = returnPathTarget(config);
  }

  async create(context: RequestContext, input: CreateEmailDomainRequest): Promise<EmailDomain> {
    const workspaceId = workspaceOf(context);
    const checked = normalizeDomainName(input.domain);
    if (!checked.ok) throw AppError.validation([{ param: 'domain', message: checked.message }]);
    const domain = checked.value;
    if (isWithin(domain, this.config.EMAIL_ONBOARDING_DOMAIN.toLowerCase()))
      throw AppError.validation([
        {
          param: 'domain',
          message: `is the platform's shared onboarding domain (${this.config.EMAIL_ONBOARDING_DOMAIN}), which every workspace may already send from`,
        },
      ]);
    let returnPathName = DEFAULT_RETURN_PATH_NAME;
    if (input.return_path) {
      const name = normalizeReturnPathName(input.return_path.name, domain);
      if (!name.ok)
        throw AppError.validation([{ param: 'return_path.name', message: name.message }]);
      returnPathName = name.value;
    }
    rejectUnsupported([
      ...trackingUnsupported(input.tracking),
      ...dkimModeUnsupported(input.dkim?.mode),
      ...settingsUnsupported(input.settings),
    ]);

    // Generated before the transaction: 2048-bit RSA takes tens of milliseconds of CPU.
    const keys = await generateKeyPairAsync('rsa', {
      modulusLength: DKIM_KEY_SIZE,
      publicKeyEncoding: { type: 'spki', format: 'der' },
      privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
    });
    const selector = newSelector();
    const records = buildRecords({
      domain,
      selector,
      publicKey: keys.publicKey.toString('base64'),
      returnPathName,
      returnPathTarget: this.returnPathTarget,
    });
    return this.writes.run(context, async (manager) => {
      const row = await this.repository.insert(manager, {
        id: newId('dom'),
        workspaceId,
        domain,
        selector,
        keySize: DKIM_KEY_SIZE,
        privateKeySealed: this.box.seal(keys.privateKey),
        returnPathName,
        records,
      });
      if (!row)
        throw new AppError(EmailErrors.DomainAlreadyExists, {
          message: `The workspace already has the sending domain ${domain}.`,
        });
      return toDomainDto(row);
    });
  }

  async list(context: RequestContext, input: ListEmailDomainsRequest): Promise<Page<EmailDomain>> {
    const page = await this.repository.list(workspaceOf(context), input, this.cursors);
    return { ...page, data: page.data.map(toDomainDto) };
  }

  async get(context: RequestContext, domainId: string): Promise<EmailDomain> {
    const row = await this.repository.find(workspaceOf(context), domainId);
    if (!row) throw new AppError(EmailErrors.DomainNotFound);
    return toDomainDto(row);
  }

  /**
   * Settings and the return path change; what this deployment cannot do (tracking domains, open
   * and click tracking, delegated DKIM, inbound) is refused with E01017 naming the field, before
   * anything is written. A new return path on a verified one is staged until its record verifies.
   */
  async update(context: RequestContext, input: UpdateEmailDomainRequest): Promise<EmailDomain> {
    const workspaceId = workspaceOf(context);
    rejectUnsupported([
      ...(input.tracking === null ? [] : trackingUnsupported(input.tracking)),
      ...dkimModeUnsupported(input.dkim?.mode),
      ...settingsUnsupported(input.settings),
      ...(input.inbound?.enabled
        ? [
            {
              param: 'inbound.enabled',
              message: 'receiving mail is not available on this deployment',
            },
          ]
        : []),
    ]);
    return this.writes.run(context, async (manager) => {
      const row = await this.repository.find(workspaceId, input.domain_id, manager, true);
      if (!row) throw new AppError(EmailErrors.DomainNotFound);
      let records = row.records;
      let returnPathName = row.return_path_name;
      let changed = false;
      if (input.return_path) {
        const name = normalizeReturnPathName(input.return_path.name, row.domain);
        if (!name.ok)
          throw AppError.validation([{ param: 'return_path.name', message: name.message }]);
        const staged = records.find((r) => r.purpose === 'return_path' && r.state === 'pending');
        const stagedName = staged?.host.split('.')[0];
        const active = records.find((r) => r.purpose === 'return_path' && r.state === 'active');
        if (name.value === returnPathName) {
          // Back to the current name: a staged change is withdrawn.
          if (staged) {
            records = records.filter((r) => r !== staged);
            changed = true;
          }
        } else if (name.value !== stagedName) {
          const withoutStaged = records.filter((r) => r !== staged);
          if (active?.status === 'verified') {
            records = [
              ...withoutStaged,
              returnPathRecord(row.domain, name.value, this.returnPathTarget, 'pending'),
            ];
          } else {
            records = withoutStaged.map((r) =>
              r === active ? returnPathRecord(row.domain, name.value, this.returnPathTarget) : r,
            );
            returnPathName = name.value;
          }
          changed = true;
        }
      }
      const clickTracking = input.settings?.click_tracking ?? row.click_tracking;
      const openTracking = input.settings?.open_tracking ?? row.open_tracking;
      if (clickTracking !== row.click_tracking || openTracking !== row.open_tracking)
        changed = true;
      if (!changed) return toDomainDto(row);
      return toDomainDto(
        await this.repository.updateConfiguration(manager, row.id, {
          clickTracking,
          openTracking,
          returnPathName,
          records,
        }),
      );
    });
  }

  async remove(context: RequestContext, domainId: string): Promise<null> {
    const workspaceId = workspaceOf(context);
    return this.writes.run(context, async (manager) => {
      if (!(await this.repository.delete(manager, workspaceId, domainId)))
        throw new AppError(EmailErrors.DomainNotFound);
      return null;
    });
  }

  /**
   * Looks every record up (outside any transaction: DNS may take seconds), then records the
   * outcome on the row as it is by then. `domain.verified` and `domain.failed` are emitted only
   * when the status changes to that value.
   */
  async verify(context: RequestContext, domainId: string): Promise<EmailDomain> {
    const workspaceId = workspaceOf(context);
    const before = await this.repository.find(workspaceId, domainId);
    if (!before) throw new AppError(EmailErrors.DomainNotFound);
    const outcomes = await this.dns.check(
      before.domain,
      before.records.filter((r) => r.state !== 'deprecated'),
    );
    const checkedAt = new Date();
    return this.writes.run(context, async (manager) => {
      const row = await this.repository.find(workspaceId, domainId, manager, true);
      if (!row) throw new AppError(EmailErrors.DomainNotFound);
      // The records may have changed meanwhile (a new return path): outcomes apply to the
      // records that are still the same, the others stay unchecked until the next run.
      const byIdentity = new Map(
        [...outcomes].map(([record, outcome]) => [identity(record), outcome]),
      );
      const current = new Map(
        row.records.flatMap((record) => {
          const outcome = byIdentity.get(identity(record));
          return outcome && record.state !== 'deprecated' ? [[record, outcome] as const] : [];
        }),
      );
      const result = applyVerification(row.records, current, row.status);
      const becameVerified = result.status === 'verified' && row.status !== 'verified';
      const saved = await this.repository.saveVerification(manager, row.id, {
        status: result.status,
        records: result.records,
        returnPathName: result.returnPathName ?? row.return_path_name,
        checkedAt,
        verifiedAt: becameVerified ? checkedAt : null,
      });
      if (result.status !== row.status) {
        if (result.status === 'verified')
          await this.recordDomainEvent(manager, {
            type: 'domain.verified',
            timestamp: checkedAt.toISOString(),
            data: { domain_id: saved.id, domain: saved.domain, workspace_id: saved.workspace_id },
          });
        else if (result.status === 'failed')
          await this.recordDomainEvent(manager, {
            type: 'domain.failed',
            timestamp: checkedAt.toISOString(),
            data: {
              domain_id: saved.id,
              domain: saved.domain,
              workspace_id: saved.workspace_id,
              failure_reason: result.failureReason,
            },
          });
      }
      return toDomainDto(saved);
    });
  }

  /**
   * Writes the `domain.*` event of a status change to the email outbox, in the verification's
   * transaction: it is published (once, by its id) exactly when the new status is committed.
   */
  private async recordDomainEvent(
    manager: EntityManager,
    event: EmailDomainVerifiedEvent | EmailDomainFailedEvent,
  ): Promise<void> {
    await writeOutboxEvents(manager, 'email', [
      {
        id: newId('dev'),
        type: event.type,
        workspaceId: event.data.workspace_id,
        timestamp: event.timestamp,
        data: event.data,
      },
    ]);
  }
}

function identity(record: StoredDnsRecord): string {
  return `${record.purpose}\n${record.host}\n${record.value}`;
}

function rejectUnsupported(details: ErrorDetail[]): void {
  if (details.length)
    throw new AppError(CommonErrors.UnsupportedFeature, {
      message: `This deployment does not offer ${details.map((d) => d.param).join(', ')}.`,
      details,
    });
}

function trackingUnsupported(tracking: { name: string } | null | undefined): ErrorDetail[] {
  return tracking
    ? [
        {
          param: 'tracking',
          message: 'branded open and click tracking domains are not available on this deployment',
        },
      ]
    : [];
}

function dkimModeUnsupported(mode: string | undefined): ErrorDetail[] {
  return mode === 'delegated'
    ? [
        {
          param: 'dkim.mode',
          message: 'delegated DKIM is not available; the key is published as a TXT record (txt)',
        },
      ]
    : [];
}

function settingsUnsupported(
  settings: { click_tracking?: boolean; open_tracking?: boolean } | undefined,
): ErrorDetail[] {
  const details: ErrorDetail[] = [];
  for (const field of ['click_tracking', 'open_tracking'] as const) {
    if (settings?.[field] === true)
      details.push({
        param: `settings.${field}`,
        message: 'open and click tracking are not available on this deployment',
      });
  }
  return details;
}
