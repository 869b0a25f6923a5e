import { Injectable } from '@nestjs/common';
import { enqueueJobs } from '@switchboard/background';
import type { EntityManager } from 'typeorm';
import type { ConnectedNumber, MetaStatus } from '../webhooks/meta-webhook';
import type { WhatsAppStatusApplier } from '../webhooks/webhook-appliers';
import { WhatsAppStatusesRepository } from './message-statuses.repository';
import type { StatusUpdate } from './message-statuses.repository';

/** Statuses whose wamid was not known yet, applied again a little later. */
export const LATE_STATUSES_QUEUE = 'whatsapp.late-statuses';

export interface LateStatusesPayload {
  number_id: string;
  /** The number's workspace: a late status may be a reaction's, looked up in that workspace. */
  workspace_id: string;
  statuses: StatusUpdate[];
}

/** Meta's `statuses[]` as the repository takes them. */
export function statusUpdatesOf(statuses: MetaStatus[]): StatusUpdate[] {
  return statuses.map((status) => ({
    wamid: status.id,
    status: status.status,
    timestamp: status.timestamp,
    errors: status.errors,
  }));
}

/**
 * The webhook processor's `WHATSAPP_STATUS_APPLIER`: Meta's `statuses[]` of one number, applied
 * to that number's outbound messages. Meta may report `sent` before the dispatcher has recorded
 * the wamid Meta answered it; a status whose wamid matches no message yet is therefore queued
 * (in the same transaction) to be applied again a few times before it is given up. The webhook
 * applier hands over only what no reaction of ours claimed; a reaction whose wamid the
 * interactions runner has not recorded yet is among the late ones, and the retry tries it too.
 */
@Injectable()
export class MetaStatusApplier implements WhatsAppStatusApplier {
  constructor(private readonly statuses: WhatsAppStatusesRepository) {}

  async applyStatuses(
    manager: EntityManager,
    number: ConnectedNumber,
    statuses: MetaStatus[],
  ): Promise<void> {
    const updates = statusUpdatesOf(statuses);
    const matched = await this.statuses.applyStatuses(manager, updates, number.id);
    const late = updates.filter((update) => !matched.has(update.wamid));
    if (late.length === 0) return;
    const payload: LateStatusesPayload = {
      number_id: number.id,
      workspace_id: number.workspaceId,
      statuses: late,
    };
    await enqueueJobs(manager, 'sms_whatsapp', [
      { queue: LATE_STATUSES_QUEUE, payload, runAt: new Date(Date.now() + 2_000) },
    ]);
  }
}
