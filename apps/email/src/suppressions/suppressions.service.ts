import { Injectable } from '@nestjs/common';
import { EmailErrors, preferenceStops } from '@switchboard/contracts';
import type {
  CreateEmailSuppressionReply,
  CreateEmailSuppressionRequest,
  EmailCategory,
  EmailSuppression,
  ListEmailSuppressionsRequest,
  RequestContext,
} from '@switchboard/contracts';
import { CursorCodec, IdempotentWrites, newId } from '@switchboard/persistence';
import { writeOutboxEvents } from '@switchboard/background';
import type { Page, SqlRunner } from '@switchboard/persistence';
import { AppError, workspaceOf } from '@switchboard/platform';
import { suppressionCreatedEvent } from './suppression-events';
import { toSuppressionDto } from './suppression.mapper';
import { SuppressionsRepository } from './suppressions.repository';

/** A recipient that hard-bounced, as the delivery pipeline reports it. */
export interface BouncedRecipient {
  email: string;
  sourceEmailId: string;
  sourceRecipientId: string;
}

/**
 * The workspace suppression list: the API's add, list, read and delete, and the policy the
 * message pipeline applies per recipient after acceptance (hard bounce and manual block all
 * mail; complaint and unsubscribe block marketing only).
 */
@Injectable()
export class SuppressionsService {
  /** Its writes wake the outbox relay (the email service's `IdempotentWrites` do after each). */
  constructor(
    private readonly repository: SuppressionsRepository,
    private readonly writes: IdempotentWrites,
    private readonly cursors: CursorCodec,
  ) {}

  /**
   * The addresses among `emails` that may not receive mail of `category`, in one query inside
   * the caller's transaction (`executor`): suppressed, or, with `preferences`, opted out in the
   * preference ledger's projection (a revocation covering all mail, or non-transactional mail
   * while `category` is marketing; ADR 14). Addresses compare lowercased; the set holds them as
   * given, so `set.has(recipient)` answers for each recipient passed.
   */
  async suppressedAmong(
    executor: SqlRunner,
    workspaceId: string,
    emails: string[],
    category: EmailCategory,
    options: { preferences: boolean },
  ): Promise<Set<string>> {
    if (emails.length === 0) return new Set();
    const lowered = [...new Set(emails.map((email) => email.toLowerCase()))];
    const rows = await this.repository.suppressedAmong(
      executor,
      workspaceId,
      lowered,
      category,
      options.preferences,
    );
    const transactional = category !== 'marketing';
    const hits = new Set(
      rows
        .filter(
          (row) =>
            row.status === null ||
            preferenceStops(
              [{ sender_scope: '', status: row.status, coverage: row.coverage ?? '' }],
              {
                senderScope: '',
                transactional,
              },
            ),
        )
        .map((row) => row.email),
    );
    return new Set(emails.filter((email) => hits.has(email.toLowerCase())));
  }

  /**
   * Suppresses hard-bounced addresses (reason `hard_bounce`, origin `bounce_event`, all mail)
   * in one statement inside the caller's transaction; an address already suppressed for a hard
   * bounce keeps its first record. Returns the suppressions this call created (for
   * `email_suppression.created` events).
   */
  async recordBounces(
    executor: SqlRunner,
    workspaceId: string,
    entries: BouncedRecipient[],
  ): Promise<EmailSuppression[]> {
    const byEmail = new Map<string, BouncedRecipient>();
    for (const entry of entries) {
      const email = entry.email.trim().toLowerCase();
      if (email && !byEmail.has(email)) byEmail.set(email, entry);
    }
    if (byEmail.size === 0) return [];
    const rows = await this.repository.insertFromEvents(
      executor,
      workspaceId,
      'hard_bounce',
      'bounce_event',
      [...byEmail].map(([email, entry]) => ({
        id: newId('sup'),
        email,
        sourceEmailId: entry.sourceEmailId,
        sourceRecipientId: entry.sourceRecipientId,
      })),
    );
    return rows.map(toSuppressionDto);
  }

  /** Adds a manual suppression; an address that already has one is answered with it. */
  async create(
    context: RequestContext,
    input: CreateEmailSuppressionRequest,
  ): Promise<CreateEmailSuppressionReply> {
    const workspaceId = workspaceOf(context);
    const email = input.email.trim().toLowerCase();
    if (!email)
      throw AppError.validation([{ param: 'email', message: 'must be an email address' }]);
    return this.writes.run(context, async (manager) => {
      const { created, row } = await this.repository.insertOrFind(manager, {
        id: newId('sup'),
        workspaceId,
        email,
        reason: 'manual',
        origin: context.caller.kind === 'session' ? 'user' : 'api_key',
      });
      const suppression = toSuppressionDto(row);
      if (created)
        await writeOutboxEvents(manager, 'email', [suppressionCreatedEvent(suppression)]);
      return { created, suppression };
    });
  }

  async list(
    context: RequestContext,
    input: ListEmailSuppressionsRequest,
  ): Promise<Page<EmailSuppression>> {
    const page = await this.repository.list(workspaceOf(context), input, this.cursors);
    return { ...page, data: page.data.map(toSuppressionDto) };
  }

  async get(context: RequestContext, suppressionId: string): Promise<EmailSuppression> {
    const row = await this.repository.find(workspaceOf(context), suppressionId);
    if (!row) throw new AppError(EmailErrors.SuppressionNotFound);
    return toSuppressionDto(row);
  }

  async remove(context: RequestContext, suppressionId: string): Promise<null> {
    const workspaceId = workspaceOf(context);
    return this.writes.run(context, async (manager) => {
      if (!(await this.repository.delete(manager, workspaceId, suppressionId)))
        throw new AppError(EmailErrors.SuppressionNotFound);
      return null;
    });
  }
}
