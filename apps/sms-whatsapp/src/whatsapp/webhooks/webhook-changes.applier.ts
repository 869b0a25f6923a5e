import { Inject, Injectable, Optional } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { WhatsAppNumbersRepository } from '../numbers';
import { applyOwnReactionStatuses } from '../reactions/own-reaction-fold';
import { accountUpdate, qualityChanges } from './account-changes';
import type { ConnectedNumber, InboundMessagesSink, MetaStatus } from './meta-webhook';
import { WHATSAPP_INBOUND_SINK } from './meta-webhook';
import { WHATSAPP_STATUS_APPLIER, WHATSAPP_TEMPLATE_STATUS_APPLIER } from './webhook-appliers';
import type { WhatsAppStatusApplier, WhatsAppTemplateStatusApplier } from './webhook-appliers';
import { WebhookAccountsRepository } from './webhook-accounts.repository';
import type { WebhookChange } from './webhook-changes';

/** How long a connected number is remembered by its phone number id. */
const NUMBER_CACHE_MS = 30_000;

/**
 * Applies the changes of a batch of webhooks inside the processor's transaction, each to the
 * area that owns it: statuses to the messages (and our reactions), inbound messages to the
 * inbound sink, template updates to the templates, quality and account updates here. A change
 * for a number no workspace connected is noted and dropped: it will never route.
 */
@Injectable()
export class WebhookChangesApplier {
  private readonly numbers = new Map<string, { number: ConnectedNumber; until: number }>();

  constructor(
    private readonly accounts: WebhookAccountsRepository,
    private readonly registered: WhatsAppNumbersRepository,
    @Optional() @Inject(WHATSAPP_STATUS_APPLIER) private readonly statuses?: WhatsAppStatusApplier,
    @Optional() @Inject(WHATSAPP_INBOUND_SINK) private readonly inbound?: InboundMessagesSink,
    @Optional()
    @Inject(WHATSAPP_TEMPLATE_STATUS_APPLIER)
    private readonly templates?: WhatsAppTemplateStatusApplier,
  ) {}

  /**
   * `mayWait(rowId)`: whether a change for a number not connected yet is retried rather than
   * noted (Meta may post for a number while it is being connected: its app is subscribed before
   * the number's row commits).
   */
  async apply(
    manager: EntityManager,
    changes: WebhookChange[],
    note: (rowId: string, text: string) => void,
    mayWait: (rowId: string) => boolean = () => false,
  ): Promise<void> {
    const numbers = await this.connected(
      manager,
      changes.flatMap((change) => (change.kind === 'messages' ? [change.phoneNumberId] : [])),
    );
    const statusesOf = new Map<ConnectedNumber, MetaStatus[]>();
    for (const change of changes) {
      switch (change.kind) {
        case 'messages': {
          const number = numbers.get(change.phoneNumberId);
          if (!number && mayWait(change.rowId))
            throw new Error(`phone_number_id ${change.phoneNumberId} is not connected (yet)`);
          if (!number) {
            note(change.rowId, `phone_number_id ${change.phoneNumberId} is not connected; ignored`);
            break;
          }
          const { statuses = [], messages = [], contacts = [] } = change.value;
          if (statuses.length > 0)
            statusesOf.set(number, [...(statusesOf.get(number) ?? []), ...statuses]);
          if (messages.length > 0 || contacts.length > 0)
            await required(this.inbound, 'inbound messages').record(manager, number, change.value);
          break;
        }
        case 'template_status':
          await required(this.templates, 'template status updates').applyTemplateStatusUpdate(
            manager,
            change.wabaId,
            change.value,
          );
          break;
        case 'quality':
          await this.applyQuality(manager, change, note);
          break;
        case 'account':
          await this.accounts.updateAccount(manager, change.wabaId, accountUpdate(change.value));
          break;
      }
    }
    for (const [number, statuses] of statusesOf) {
      // Our reactions' first: the statuses they leave are the messages', and those the messages
      // do not know yet are retried later (a reaction's too, whose wamid may not be recorded yet).
      const reactions = await applyOwnReactionStatuses(manager, number.workspaceId, statuses);
      await required(this.statuses, 'message statuses').applyStatuses(
        manager,
        number,
        statuses.filter((status) => !reactions.has(status.id)),
      );
    }
  }

  private async applyQuality(
    manager: EntityManager,
    change: Extract<WebhookChange, { kind: 'quality' }>,
    note: (rowId: string, text: string) => void,
  ): Promise<void> {
    const display = change.value.display_phone_number;
    const digits = typeof display === 'string' ? display.replace(/\D/g, '') : '';
    const number = digits
      ? await this.accounts.lockNumberOfAccount(manager, change.wabaId, digits)
      : undefined;
    if (!number) {
      note(
        change.rowId,
        `quality update for ${String(display)} of ${change.wabaId}: no such number; ignored`,
      );
      return;
    }
    for (const numberChange of qualityChanges(number, change.value))
      await this.accounts.changeNumber(manager, number, numberChange);
  }

  /**
   * The connected numbers by phone number id. Only numbers found are remembered: a number
   * connected a moment ago is found by the next webhook, not refused for the cache's lifetime.
   */
  private async connected(
    manager: EntityManager,
    phoneNumberIds: string[],
  ): Promise<Map<string, ConnectedNumber>> {
    const now = Date.now();
    const found = new Map<string, ConnectedNumber>();
    const missing: string[] = [];
    for (const id of new Set(phoneNumberIds)) {
      const cached = this.numbers.get(id);
      if (cached && cached.until > now) found.set(id, cached.number);
      else missing.push(id);
    }
    // A batch names few numbers (the cache holds the rest): one indexed read each.
    for (const id of missing) {
      const number = await this.registered.findConnectedByPhoneNumberId(id, manager);
      if (!number) continue;
      found.set(id, number);
      this.numbers.set(id, { number, until: now + NUMBER_CACHE_MS });
    }
    return found;
  }
}

/**
 * The area that applies a kind of change. Until it is part of the service the batch fails and
 * its webhooks stay recorded, retried with back-off, never dropped.
 */
function required<T>(applier: T | undefined, what: string): T {
  if (!applier) throw new Error(`nothing in this service applies ${what} yet`);
  return applier;
}
