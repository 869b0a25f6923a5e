import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { EmailErrors } from '@switchboard/contracts';
import type {
  EmailBatchItem,
  EmailSendInput,
  EmailMessage,
  EmailSendRequest,
  ErrorDetail,
  RequestContext,
} from '@switchboard/contracts';
import { idempotencyScope, idempotentWrite, storedReply } from '@switchboard/persistence';
import { CommitBatcher, writeTogetherOrAlone } from '@switchboard/background';
import { AppError, SealedBox, workspaceOf } from '@switchboard/platform';
import { DataSource } from 'typeorm';
import { EMAIL_CONFIG } from '../../config/email.config';
import type { EmailConfig } from '../../config/email.config';
import { SendingDomainsService } from '../../domains';
import { isStaleTemplatePin } from '../../templates';
import type { SenderDomain } from '../../domains';
import { toBatchItem, toMessageDto } from '../message.mapper';
import type { MessageRow } from '../message.mapper';
import { AcceptRepository } from './accept.repository';
import { draftMessage, senderDomainOf } from './message-draft';
import {
  normaliseBatchRequest,
  normaliseSendRequest,
  sendProblemsError,
} from './send-request.normaliser';
import type { MessageDraft } from './message-draft';
import { TemplateSends } from './template-sends';

/**
 * Accepts sends and batches: the sender rules, then every row of the send (message, recipients,
 * content, events, processing job) in one transaction before the 202, so an accepted message is
 * durable and the worker picks it up at commit. Suppression and recipient rules are applied when
 * the message is processed, never here (spec send rule 2).
 */
@Injectable()
export class SendService {
  /**
   * Verified senders seen in the last seconds, per workspace and domain: most sends repeat the
   * same few. A domain deleted or unverified meanwhile is caught when the message is processed
   * (its recipients are rejected with `domain_unverified`), so the cache cannot let mail out.
   */
  private readonly verified = new Map<string, number>();
  /** Lookups under way: sends that miss meanwhile wait for the same answer, not their own. */
  private readonly senderLookups = new Map<string, Promise<Map<string, SenderDomain>>>();
  /**
   * Group commit of single plain sends (no Idempotency-Key, no onboarding count): those arriving
   * while one statement runs are written together by the next, each answered after the commit
   * that holds it. Under load PostgreSQL does one statement and one WAL flush for many sends.
   */
  private readonly plainSends = new CommitBatcher<MessageDraft[]>((sends) =>
    this.insertPlainSends(sends),
  );

  constructor(
    @Inject(EMAIL_CONFIG) private readonly config: EmailConfig,
    @InjectDataSource('email') private readonly dataSource: DataSource,
    private readonly domains: SendingDomainsService,
    private readonly box: SealedBox,
    private readonly repository: AcceptRepository,
    private readonly templates: TemplateSends,
  ) {}

  /** A send as the gateway forwards it: every rule of its values first, then the sender's. */
  async send(context: RequestContext, input: EmailSendInput): Promise<EmailMessage> {
    const result = normaliseSendRequest(input.body, { now: new Date() });
    if (!result.ok) throw sendProblemsError(result.problems);
    const request = withWorkspaceUsers(result.value, input);
    return this.accept(
      context,
      [request],
      () => '',
      ([draft]) => toMessageDto(acceptedView(draft)),
    );
  }

  /** A batch: every item is checked before any answer, and one problem rejects the batch. */
  async sendBatch(
    context: RequestContext,
    input: EmailSendInput,
  ): Promise<{ data: EmailBatchItem[] }> {
    const result = normaliseBatchRequest(input.body, { now: new Date() });
    if (!result.ok) throw sendProblemsError(result.problems);
    return this.accept(
      context,
      result.value.messages.map((request) => withWorkspaceUsers(request, input)),
      (index) => `messages[${index}].`,
      (drafts) => ({ data: drafts.map((draft) => toBatchItem(acceptedView(draft))) }),
    );
  }

  /** `reply` shapes the answer inside the transaction: it is what an idempotent retry replays. */
  private async accept<T>(
    context: RequestContext,
    requests: EmailSendRequest[],
    paramPrefix: (index: number) => string,
    reply: (drafts: MessageDraft[]) => T,
  ): Promise<T> {
    const workspaceId = workspaceOf(context);
    const scope = idempotencyScope(context);
    // A retry replays the first answer, even if the sender's domain has gone since.
    const replay = await storedReply<T>(this.dataSource, 'email', scope, this.box);
    if (replay !== undefined) return replay;
    const onboarding = await this.checkSenders(workspaceId, requests, paramPrefix);
    try {
      return await this.write(context, requests, paramPrefix, reply, onboarding, false);
    } catch (err) {
      // A template changed since its live version was last read here: pin it afresh, once.
      if (!isStaleTemplatePin(err)) throw err;
      return this.write(context, requests, paramPrefix, reply, onboarding, true);
    }
  }

  /** Renders, drafts and writes the sends; `freshPins` as `TemplateSends.render` takes it. */
  private async write<T>(
    context: RequestContext,
    requests: EmailSendRequest[],
    paramPrefix: (index: number) => string,
    reply: (drafts: MessageDraft[]) => T,
    onboarding: boolean[],
    freshPins: boolean,
  ): Promise<T> {
    const workspaceId = workspaceOf(context);
    const scope = idempotencyScope(context);
    const rendered = requests.some((request) => request.template)
      ? await this.templates.render(context, workspaceId, requests, paramPrefix, freshPins)
      : { requests, origins: [], guards: [] };
    const now = new Date();
    const drafts = rendered.requests.map((request, index) => {
      const draft = draftMessage(
        workspaceId,
        request,
        onboarding[index],
        now,
        rendered.origins[index],
      );
      const guard = rendered.guards[index];
      if (guard) draft.templatePin = guard;
      return draft;
    });
    const onboardingMessages = onboarding.filter(Boolean).length;
    if (!context.idempotencyKey && onboardingMessages === 0) {
      // Nothing to claim or count first: the statement commits on its own. Single sends share
      // it with their neighbours; a batch is already a multi-row statement, and batches in
      // parallel keep PostgreSQL's CPUs busy.
      if (drafts.length === 1) await this.plainSends.add(drafts);
      else {
        await this.repository.insert(drafts);
        this.repository.wake(drafts);
      }
      return reply(drafts);
    }
    const answer = await idempotentWrite(
      this.dataSource,
      'email',
      scope,
      this.box,
      async (manager) => {
        if (onboardingMessages > 0) {
          const sent = await this.repository.countOnboardingSends(
            manager,
            workspaceId,
            onboardingMessages,
          );
          if (sent > this.config.EMAIL_ONBOARDING_DAILY_LIMIT) throw onboardingLimit(now);
        }
        await this.repository.insert(drafts, manager);
        return reply(drafts);
      },
    );
    this.repository.wake(drafts);
    return answer;
  }

  /**
   * One statement for every waiting send; if it fails and held several, each is retried alone
   * so a send that cannot be stored fails by itself, not with its neighbours.
   */
  private async insertPlainSends(sends: MessageDraft[][]): Promise<unknown[]> {
    const failures = await writeTogetherOrAlone(sends, (group) =>
      this.repository.insert(group.flat()),
    );
    this.repository.wake(sends.filter((_, index) => failures[index] === undefined).flat());
    return failures;
  }

  /**
   * Every `from` must be on the onboarding domain or on a verified sending domain of the
   * workspace; one lookup for all the batch's domains. Returns, per request, whether it is an
   * onboarding send; any failure rejects the whole request with each offending item named.
   */
  private async checkSenders(
    workspaceId: string,
    requests: EmailSendRequest[],
    paramPrefix: (index: number) => string,
  ): Promise<boolean[]> {
    const onboardingDomain = this.config.EMAIL_ONBOARDING_DOMAIN.toLowerCase();
    const domainsOf = requests.map((request) => senderDomainOf(request.from.email));
    const now = Date.now();
    const own = [...new Set(domainsOf.filter((domain) => domain !== onboardingDomain))];
    const unknown = own.filter(
      (domain) => (this.verified.get(`${workspaceId} ${domain}`) ?? 0) <= now,
    );
    const senders = unknown.length
      ? await this.lookUpSenders(workspaceId, unknown)
      : new Map<string, SenderDomain>();
    for (const [domain, sender] of senders)
      if (sender.verified) this.verified.set(`${workspaceId} ${domain}`, now + VERIFIED_CACHE_MS);
    if (this.verified.size > 10_000) this.verified.clear();
    const details: ErrorDetail[] = [];
    domainsOf.forEach((domain, index) => {
      if (domain === onboardingDomain || !unknown.includes(domain)) return;
      const sender = senders.get(domain);
      const param = `${paramPrefix(index)}from`;
      if (!sender)
        details.push({
          param,
          message: `${domain} is not a sending domain of this workspace: add it with POST /v1/email/domains and verify it, or send from the onboarding domain ${onboardingDomain}`,
        });
      else if (!sender.verified)
        details.push({
          param,
          message: `the sending domain ${domain} is not verified (status ${sender.status}): publish its DNS records and call POST /v1/email/domains/${sender.id}/verify`,
        });
    });
    if (details.length > 0)
      throw new AppError(EmailErrors.SenderNotAllowed, { message: details[0].message, details });
    return domainsOf.map((domain) => domain === onboardingDomain);
  }

  /**
   * When a cached sender expires under load, every send in flight misses it at once: they share
   * one lookup rather than queueing one each on the pool.
   */
  private lookUpSenders(
    workspaceId: string,
    domains: string[],
  ): Promise<Map<string, SenderDomain>> {
    const key = `${workspaceId} ${domains.join(' ')}`;
    let lookup = this.senderLookups.get(key);
    if (!lookup) {
      lookup = this.domains
        .sendersFor(workspaceId, domains)
        .finally(() => this.senderLookups.delete(key));
      this.senderLookups.set(key, lookup);
    }
    return lookup;
  }
}

/**
 * The message as the 202 shows it: `accepted` even when scheduled (reads show `scheduled`). The
 * columns the draft lacks come before its spread: V8 adds a key after a spread on a slow path
 * (about 1 us each: 21 us per send here, against 0.6 us this way). Keys after it replace the
 * draft's own.
 */
function acceptedView(draft: MessageDraft): MessageRow {
  const { message } = draft;
  return {
    broadcast_id: null,
    processed_count: 0,
    delivered_count: 0,
    bounced_count: 0,
    complained_count: 0,
    deferred_count: 0,
    rejected_count: 0,
    open_count: 0,
    click_count: 0,
    processing_latency_ms: null,
    delivery_latency_ms: null,
    total_latency_ms: null,
    processed_at: null,
    delivered_at: null,
    canceled_at: null,
    ...message,
    status: 'accepted',
    scheduled_at: message.scheduled_at ? new Date(message.scheduled_at) : null,
    created_at: new Date(message.created_at),
  };
}

const VERIFIED_CACHE_MS = 5_000;

function onboardingLimit(now: Date): AppError {
  const midnight = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1);
  const seconds = Math.max(1, Math.ceil((midnight - now.getTime()) / 1000));
  return new AppError(EmailErrors.OnboardingDomainLimit, {
    headers: { 'retry-after': String(seconds) },
  });
}

/** Who onboarding-domain mail may reach, as the gateway attached it to the send. */
function withWorkspaceUsers(request: EmailSendRequest, input: EmailSendInput): EmailSendRequest {
  return input.workspace_user_emails
    ? { ...request, workspace_user_emails: input.workspace_user_emails }
    : request;
}
