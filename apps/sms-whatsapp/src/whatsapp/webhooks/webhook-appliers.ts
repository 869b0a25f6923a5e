import type { EntityManager } from 'typeorm';
import type { ConnectedNumber, MetaStatus } from './meta-webhook';

/**
 * Applies the `statuses[]` of one `messages` change to the outbound messages they name (by
 * wamid): timestamps, `last_error` with Meta's code, message events. Inside the webhook
 * processor's transaction; applying the same statuses again changes nothing, and a status that
 * arrives after a later one (Meta does not keep order) does not move the message back.
 * Implemented by the messages area.
 */
export interface WhatsAppStatusApplier {
  applyStatuses(
    manager: EntityManager,
    number: ConnectedNumber,
    statuses: MetaStatus[],
  ): Promise<void>;
}

export const WHATSAPP_STATUS_APPLIER = Symbol('WHATSAPP_STATUS_APPLIER');

/**
 * Applies one `message_template_status_update` change of the account `wabaId` to the template
 * language it names; the same update twice changes nothing. Implemented by the templates area.
 */
export interface WhatsAppTemplateStatusApplier {
  applyTemplateStatusUpdate(
    manager: EntityManager,
    wabaId: string,
    value: Record<string, unknown>,
  ): Promise<void>;
}

export const WHATSAPP_TEMPLATE_STATUS_APPLIER = Symbol('WHATSAPP_TEMPLATE_STATUS_APPLIER');
