import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { writeOutboxEvents } from '@switchboard/background';
import { EmailTrackingErrors, PREFERENCE_STATEMENT_EVENT } from '@switchboard/contracts';
import type {
  PreferenceStatementEvent,
  UnsubscribePageReply,
  UnsubscribeRequest,
} from '@switchboard/contracts';
import {
  applyPreferenceStates,
  inPgTransaction,
  newId,
  pgPoolOf,
  poolRunner,
} from '@switchboard/persistence';
import type { SqlRunner } from '@switchboard/persistence';
import type { OutboxEvent } from '@switchboard/platform';
import { AppError } from '@switchboard/platform';
import type { Pool } from 'pg';
import { DataSource } from 'typeorm';
import { EmailEventsRepository, recipientEvent } from '../messages';
import { EngagementRepository } from '../tracking/engagement.repository';
import type { HitSubject } from '../tracking/engagement.repository';
import { eventSubject, recipientOf } from '../tracking/engagement-recorder';
import { TrackingLinks } from '../tracking/tracking-links';

/**
 * Unsubscribe links (`/u/{token}`): the page that asks, and the unsubscribe itself, a revoke of
 * marketing mail (coverage `non_transactional`, origin `unsubscribe_link`) that is effective at
 * once. One transaction writes the statement for the preference ledger
 * (`internal.preference.statement`, as SMS writes a STOP), the email service's own projection row
 * (so the very next marketing send to the address is stopped, not the one after the ledger's
 * `preference.revoked` comes back round the bus) and the timeline event.
 */
@Injectable()
export class UnsubscribeService {
  private readonly pool: Pool;
  private readonly reads: SqlRunner;

  constructor(
    @InjectDataSource('email') dataSource: DataSource,
    private readonly links: TrackingLinks,
    private readonly engagement: EngagementRepository,
    private readonly emailEvents: EmailEventsRepository,
  ) {
    this.pool = pgPoolOf(dataSource);
    this.reads = poolRunner(dataSource);
  }

  /** What the confirmation page shows; nothing is changed (mail scanners follow links). */
  async page(token: string): Promise<UnsubscribePageReply> {
    return describe(await this.subjectOf(this.reads, token));
  }

  async unsubscribe(request: UnsubscribeRequest): Promise<UnsubscribePageReply> {
    return inPgTransaction(this.pool, async (runner) => {
      const subject = await this.subjectOf(runner, request.token);
      const at = new Date();
      const statement = unsubscribeStatement(subject, at);
      await writeOutboxEvents(runner, 'email', [statement]);
      await applyPreferenceStates(runner, 'email', [
        {
          workspace_id: subject.workspace_id,
          channel: 'email',
          handle: statement.data.handle,
          sender_scope: '',
          status: 'revoked',
          coverage: statement.data.coverage,
          effective_at: at,
          // The ledger's own transition of this statement (`prt_...`, same effective_at) sorts
          // after this event's id (`ev_...`), so when it arrives it takes the row over.
          transition_id: statement.id,
        },
      ]);
      const type = request.via === 'one_click' ? 'email.list_unsubscribed' : 'email.unsubscribed';
      // The SDK fires each of them once per recipient; a repeat is still stated to the ledger
      // (above: the person may have been subscribed again since).
      if (await this.engagement.lockRecipientFor(runner, subject, type)) return describe(subject);
      // The page's link carries no name, and the SDK leaves link_name out for such a link.
      const detail =
        request.via === 'page' ? { url: `${this.links.origin}/u/${request.token}` } : {};
      const event = recipientEvent(type, eventSubject(subject), recipientOf(subject), at, detail);
      await this.emailEvents.record(runner, [
        { ...event, data: { ...event.data, broadcast_id: subject.broadcast_id } },
      ]);
      return describe(subject);
    });
  }

  private async subjectOf(runner: SqlRunner, token: string): Promise<HitSubject> {
    const claim = this.links.tokens.verify(token);
    if (claim?.kind !== 'unsubscribe')
      throw new AppError(EmailTrackingErrors.UnsubscribeLinkNotFound);
    const [subject] = await this.engagement.subjects(runner, [claim]);
    if (!subject) throw new AppError(EmailTrackingErrors.UnsubscribeLinkNotFound);
    return subject;
  }
}

/** The person's own revoke of marketing mail to their address, for the preference ledger. */
export function unsubscribeStatement(
  subject: HitSubject,
  at: Date,
): OutboxEvent<PreferenceStatementEvent> {
  return {
    id: newId('ev', at.getTime()),
    type: PREFERENCE_STATEMENT_EVENT,
    workspaceId: subject.workspace_id,
    timestamp: at.toISOString(),
    data: {
      channel: 'email',
      handle: subject.email.trim().toLowerCase(),
      sender_scope: null,
      status: 'revoked',
      coverage: 'non_transactional',
      origin: 'unsubscribe_link',
      effective_at: at.toISOString(),
      consented_at: null,
      source: `email:${subject.message_id}`,
    },
  };
}

function describe(subject: HitSubject): UnsubscribePageReply {
  return { masked_address: maskedAddress(subject.email), sender_domain: subject.sender_domain };
}

/** `jane.doe@example.com` as `j…e@example.com`: enough to recognise, not to harvest. */
export function maskedAddress(email: string): string {
  const at = email.lastIndexOf('@');
  const local = email.slice(0, at);
  const shown = local.length <= 2 ? `${local[0] ?? ''}…` : `${local[0]}…${local[local.length - 1]}`;
  return `${shown}${email.slice(at)}`;
}
