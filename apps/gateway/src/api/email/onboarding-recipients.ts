import { Inject, Injectable } from '@nestjs/common';
import type { EmailSendInput } from '@switchboard/contracts';
import { GATEWAY_CONFIG } from '../../config/gateway.config';
import type { GatewayConfig } from '../../config/gateway.config';
import { IdentityRepository } from '../../identity/identity.repository';

/** How long a workspace's user emails are reused: a user added now may be reached a few seconds late. */
export const USER_EMAILS_TTL_MS = 5_000;
/** Workspaces remembered at once; the oldest entry makes room. */
const MAX_WORKSPACES = 10_000;

/**
 * Mail from the shared onboarding domain may reach only the workspace's own users: the gateway,
 * which holds identity, hands the service their emails with each such send
 * (`workspace_user_emails`), and the service rejects every other recipient. One query per
 * workspace, reused for a few seconds, and shared by concurrent sends.
 */
@Injectable()
export class OnboardingRecipients {
  private readonly cache = new Map<string, { expires: number; emails: Promise<string[]> }>();
  private readonly domain: string;

  constructor(
    @Inject(GATEWAY_CONFIG) config: GatewayConfig,
    private readonly identity: IdentityRepository,
  ) {
    this.domain = config.EMAIL_ONBOARDING_DOMAIN.trim().toLowerCase();
  }

  /**
   * Whether a sender as sent (`"Name <a@b>"`, `{email}` or anything else) may be on the onboarding
   * domain. Deciding what the sender is belongs to the email service; this only has to never
   * miss one, and a false yes costs a cached lookup.
   */
  mayBeOnboardingSender(from: unknown): boolean {
    const text = typeof from === 'string' ? from : JSON.stringify(from ?? null);
    return text.toLowerCase().includes(`@${this.domain}`);
  }

  /**
   * The body as the email service takes it, with the workspace users' emails when a sender of
   * it (`from`, or each message's `from` in a batch) may be on the onboarding domain.
   */
  async attach(workspaceId: string | undefined, body: unknown): Promise<EmailSendInput> {
    if (!workspaceId || !sendersOf(body).some((from) => this.mayBeOnboardingSender(from)))
      return { body };
    return { body, workspace_user_emails: await this.userEmails(workspaceId) };
  }

  private userEmails(workspaceId: string): Promise<string[]> {
    const now = Date.now();
    const cached = this.cache.get(workspaceId);
    if (cached && cached.expires > now) return cached.emails;
    if (cached) this.cache.delete(workspaceId);
    else if (this.cache.size >= MAX_WORKSPACES) this.evictOldest(now);
    const emails = this.identity.listWorkspaceUserEmails(workspaceId);
    const entry = { expires: now + USER_EMAILS_TTL_MS, emails };
    this.cache.set(workspaceId, entry);
    // A failed lookup is not remembered: the next send asks again.
    emails.catch(() => {
      if (this.cache.get(workspaceId) === entry) this.cache.delete(workspaceId);
    });
    return emails;
  }

  /** Drops expired entries, or the oldest one when none has expired. */
  private evictOldest(now: number): void {
    for (const [key, entry] of this.cache) if (entry.expires <= now) this.cache.delete(key);
    if (this.cache.size >= MAX_WORKSPACES) {
      const oldest = this.cache.keys().next();
      if (!oldest.done) this.cache.delete(oldest.value);
    }
  }
}

/** The `from` of a send body, or of every message of a batch body. */
function sendersOf(body: unknown): unknown[] {
  if (typeof body !== 'object' || body === null) return [];
  const { from, messages } = body as { from?: unknown; messages?: unknown };
  if (Array.isArray(messages))
    return messages.map((message: unknown) =>
      typeof message === 'object' && message !== null
        ? (message as { from?: unknown }).from
        : undefined,
    );
  return [from];
}
