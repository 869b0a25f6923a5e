import { Inject, Injectable } from '@nestjs/common';
import type { EmailSendRequest } from '@switchboard/contracts';
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

  isOnboardingSender(request: EmailSendRequest): boolean {
    const email = request.from.email;
    return email.slice(email.lastIndexOf('@') + 1) === this.domain;
  }

  /** The requests, each from the onboarding domain with `workspace_user_emails` attached. */
  async attach(
    workspaceId: string | undefined,
    requests: EmailSendRequest[],
  ): Promise<EmailSendRequest[]> {
    if (!workspaceId || !requests.some((request) => this.isOnboardingSender(request)))
      return requests;
    const emails = await this.userEmails(workspaceId);
    return requests.map((request) =>
      this.isOnboardingSender(request) ? { ...request, workspace_user_emails: emails } : request,
    );
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
