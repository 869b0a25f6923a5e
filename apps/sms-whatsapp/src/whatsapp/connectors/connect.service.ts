import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import {
  CommonErrors,
  WHATSAPP_CONNECTOR_TEMPLATE_REF,
  WhatsAppConnectErrors,
  WhatsAppGraphErrors,
} from '@switchboard/contracts';
import type {
  CreateConnectorReply,
  CreateConnectorRequest,
  RequestContext,
} from '@switchboard/contracts';
import { IdempotentWrites, newId } from '@switchboard/persistence';
import { AppError, workspaceOf } from '@switchboard/platform';
import type { EntityManager } from 'typeorm';
import { SMS_WHATSAPP_CONFIG } from '../../config/sms-whatsapp.config';
import type { SmsWhatsappConfig } from '../../config/sms-whatsapp.config';
import { BusinessAccountsRepository } from '../business-accounts/business-accounts.repository';
import { accountReadingOf } from '../business-accounts/business-account.row';
import { WHATSAPP_GRAPH } from '../graph/whatsapp-graph';
import type {
  GraphBusinessAccount,
  GraphPhoneNumber,
  WhatsAppGraph,
} from '../graph/whatsapp-graph';
import { graphStep } from '../numbers/graph-failure';
import { changeEvents, readingOf } from '../numbers/number-reading';
import { WhatsAppNumbersRepository } from '../numbers/whatsapp-numbers.repository';
import { TemplateSyncService } from '../templates/template-sync.service';
import type { NewNumberEvent } from '../numbers/whatsapp-number.row';
import { checkedConnectorArguments, e164Of } from './connector-arguments';
import type { ConnectRequest, NumberToConnect } from './connector-arguments';
import { toConnector } from './connector.row';
import type { ConnectorRow } from './connector.row';
import { ConnectorsRepository } from './connectors.repository';
import { readLegacyChannel } from './legacy-channel-source';

/** What Meta said about the number and its account, read before anything is written. */
interface MetaReadings {
  phone: GraphPhoneNumber;
  account: GraphBusinessAccount;
}

/**
 * Connecting a WhatsApp number (ADR 0013): the arguments are checked (or read from the legacy
 * channel source), Meta registers the number and subscribes the app to its account, both are
 * read back, and only then are the connector, the account, the number, its events and the
 * channel group written, in one transaction. Any failure before that writes nothing.
 */
@Injectable()
export class ConnectService {
  constructor(
    @Inject(SMS_WHATSAPP_CONFIG) private readonly config: SmsWhatsappConfig,
    @Inject(WHATSAPP_GRAPH) private readonly graph: WhatsAppGraph,
    private readonly connectors: ConnectorsRepository,
    private readonly numbers: WhatsAppNumbersRepository,
    private readonly accounts: BusinessAccountsRepository,
    private readonly writes: IdempotentWrites,
    private readonly templateSyncs: TemplateSyncService,
  ) {}

  async create(
    context: RequestContext,
    input: CreateConnectorRequest,
  ): Promise<CreateConnectorReply> {
    const workspaceId = workspaceOf(context);
    if (input.workspace_id !== workspaceId) throw new AppError(CommonErrors.WorkspaceMismatch);
    if (input.connectorTemplateRef !== WHATSAPP_CONNECTOR_TEMPLATE_REF)
      throw new AppError(WhatsAppConnectErrors.UnsupportedConnectorTemplate, {
        param: 'connectorTemplateRef',
      });
    const request = checkedConnectorArguments(input.arguments ?? {});
    if (Array.isArray(request)) throw AppError.validation(request);
    // A retry of a connect that went through replays it, without asking Meta again.
    const replay = await this.writes.replayOf<CreateConnectorReply>(context);
    if (replay) return replay;
    const number =
      request.kind === 'legacy'
        ? await readLegacyChannel(this.config.CP_URL, request.channelId, request.accessKey)
        : request.number;
    await this.refuseHeldElsewhere(workspaceId, number);
    const meta = await this.connectAtMeta(number);
    const reply = await this.writes.run(context, (manager) =>
      this.record(manager, context, input, request, number, meta),
    );
    this.templateSyncs.wakeSyncs();
    return reply;
  }

  /** Checked before Meta is asked to do anything, and again under the transaction's lock. */
  private async refuseHeldElsewhere(workspaceId: string, number: NumberToConnect): Promise<void> {
    const held = await this.numbers.findConnectedByPhoneNumberId(number.phoneId);
    if (held && held.workspaceId !== workspaceId)
      throw new AppError(WhatsAppConnectErrors.WhatsAppNumberHeldElsewhere, {
        param: 'arguments.phoneId',
      });
    const holder = await this.accounts.holderOf(number.wabaId);
    if (holder && holder !== workspaceId)
      throw new AppError(WhatsAppConnectErrors.WhatsAppBusinessAccountHeldElsewhere, {
        param: 'arguments.wabaId',
      });
  }

  /**
   * The number is read first, so a phone number ID that is not the number named changes
   * nothing at Meta; then register (when there is a PIN), subscribe, and read both again.
   */
  private async connectAtMeta(number: NumberToConnect): Promise<MetaReadings> {
    if (!this.config.WHATSAPP_ACCESS_TOKEN)
      throw new AppError(WhatsAppGraphErrors.WhatsAppNotConfigured);
    this.refuseOtherNumber(
      number,
      await graphStep('reading the number', () => this.graph.getPhoneNumber(number.phoneId)),
    );
    const { pin } = number;
    if (pin !== undefined)
      await graphStep('registering the number', () =>
        this.graph.registerNumber(number.phoneId, pin),
      );
    await graphStep('subscribing the app to the account', () =>
      this.graph.subscribeApp(number.wabaId),
    );
    const phone = await graphStep('reading the number', () =>
      this.graph.getPhoneNumber(number.phoneId),
    );
    const account = await graphStep('reading the account', () =>
      this.graph.getBusinessAccount(number.wabaId),
    );
    this.refuseOtherNumber(number, phone);
    return { phone, account };
  }

  private refuseOtherNumber(number: NumberToConnect, phone: GraphPhoneNumber): void {
    if (phone.display_phone_number && e164Of(phone.display_phone_number) !== number.phoneNumber)
      throw new AppError(WhatsAppConnectErrors.WhatsAppPhoneNumberMismatch, {
        param: 'arguments.phoneNumber',
        message: `WhatsApp holds ${e164Of(phone.display_phone_number)} under this phone number ID, not ${number.phoneNumber}.`,
      });
  }

  private async record(
    manager: EntityManager,
    context: RequestContext,
    input: CreateConnectorRequest,
    request: ConnectRequest,
    number: NumberToConnect,
    meta: MetaReadings,
  ): Promise<CreateConnectorReply> {
    const workspaceId = input.workspace_id;
    await this.connectors.lockPhoneNumberId(manager, number.phoneId);
    const existing = await this.numbers.lockByPhoneNumberId(manager, number.phoneId);
    if (existing && existing.workspace_id !== workspaceId)
      throw new AppError(WhatsAppConnectErrors.WhatsAppNumberHeldElsewhere, {
        param: 'arguments.phoneId',
      });
    if (existing && existing.waba !== number.wabaId)
      throw new AppError(WhatsAppConnectErrors.WhatsAppNumberAccountMismatch, {
        param: 'arguments.wabaId',
      });
    const accountReading = accountReadingOf(meta.account);
    const accountId = await this.accounts.upsert(
      manager,
      { id: newId('waa'), workspaceId, waba: number.wabaId },
      accountReading,
    );
    if (!accountId)
      throw new AppError(WhatsAppConnectErrors.WhatsAppBusinessAccountHeldElsewhere, {
        param: 'arguments.wabaId',
      });

    const reading = { ...readingOf(meta.phone), status: connectedStatus(meta.phone) };
    let channelId: string;
    let events: NewNumberEvent[];
    if (existing) {
      channelId = existing.channel_id;
      events = changeEvents(existing, reading);
      await this.numbers.applyReading(manager, existing.id, reading, {
        name: input.name,
        phoneNumber: number.phoneNumber,
      });
    } else {
      channelId = randomUUID();
      const id = newId('wan');
      await this.numbers.insert(
        manager,
        {
          id,
          workspaceId,
          businessAccountId: accountId,
          phoneNumberId: number.phoneId,
          phoneNumber: number.phoneNumber,
          channelId,
          name: input.name,
          status: 'connected',
        },
        reading,
      );
      const source = request.kind === 'legacy' ? 'legacy_migration' : 'connector';
      events = [
        this.event(workspaceId, id, 'whatsapp_number.created', 'Number connected', {
          source,
          phone_number: number.phoneNumber,
        }),
        this.event(workspaceId, id, 'whatsapp_number.status_changed', 'Status is connected', {
          to: 'connected',
        }),
      ];
    }
    await this.numbers.insertEvents(manager, events);
    // The account's templates arrive at once rather than at the next periodic sync.
    await this.templateSyncs.enqueueSyncs(manager, [accountId]);

    const args: ConnectorRow['arguments'] = {
      ...(request.kind === 'legacy' ? { isCpMigrated: true, cpChannelId: request.channelId } : {}),
      wabaId: number.wabaId,
      phoneId: number.phoneId,
      phoneNumber: number.phoneNumber,
    };
    const previous =
      existing && (await this.connectors.findByChannel(manager, workspaceId, channelId));
    const connector = previous
      ? await this.connectors.update(manager, previous.id, input.name, args)
      : await this.connectors.insert(manager, {
          id: randomUUID(),
          workspace_id: workspaceId,
          connector_template_ref: WHATSAPP_CONNECTOR_TEMPLATE_REF,
          name: input.name,
          arguments: args,
          channel_id: channelId,
          platform: 'whatsapp',
        });
    await this.connectors.upsertChannelGroup(manager, {
      id: randomUUID(),
      workspaceId,
      waba: number.wabaId,
      name: accountReading.name ?? number.wabaId,
      accountId,
    });
    const at = { region: input.region, publicOrigin: context.publicOrigin ?? '' };
    return { created: !previous, connector: toConnector(connector, at) };
  }

  private event(
    workspaceId: string,
    numberId: string,
    type: string,
    summary: string,
    metadata: Record<string, unknown>,
  ): NewNumberEvent {
    return { id: newId('wne'), workspaceId, numberId, type, summary, metadata };
  }
}

/** Statuses Meta reports that connecting does not paper over: the number is kept as Meta has it. */
const KEPT_STATUSES = [
  'banned',
  'deleted',
  'disconnected',
  'migrated',
  'flagged',
  'rate_limited',
  'restricted',
];

/** A number just registered and subscribed is `connected`, unless Meta says otherwise above. */
function connectedStatus(phone: GraphPhoneNumber): string {
  const status = readingOf(phone).status;
  return status && KEPT_STATUSES.includes(status) ? status : 'connected';
}
