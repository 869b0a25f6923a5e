import { Inject, Injectable } from '@nestjs/common';
import { EmailBroadcastErrors } from '@switchboard/contracts';
import type { EmailBroadcastSendQuota, ErrorDetail, RequestContext } from '@switchboard/contracts';
import type { SqlRunner } from '@switchboard/persistence';
import { AppError } from '@switchboard/platform';
import { EMAIL_CONFIG } from '../config/email.config';
import type { EmailConfig } from '../config/email.config';
import { SendingDomainsService } from '../domains';
import { SuppressionsService } from '../suppressions';
import { senderDomainOf } from '../messages/accept/message-draft';
import { AUDIENCE_SNAPSHOTS, AudienceSnapshots } from './audience-snapshots';
import type { BroadcastRow } from './broadcast.mapper';
import { BROADCAST_TEMPLATES } from './broadcast-templates';
import type { BroadcastTemplates } from './broadcast-templates';
import { quotaDetail, sendQuotaOf } from './send-allowance';
import type { SendAllowanceLimits } from './send-allowance';
import { sentInWindows } from './send-allowance.repository';

/** Only the shared pool exists in this deployment. */
export const SHARED_IP_POOL = 'ipp_shared';

/**
 * What a broadcast needs to send: a `from` on a verified sending domain, an audience of the
 * workspace, and a template with a published version. Checked when it is sent (and again when it
 * is prepared, by the preparation); the first failing rule answers 422 and nothing is saved.
 */
@Injectable()
export class BroadcastRequirements {
  constructor(
    @Inject(EMAIL_CONFIG) private readonly config: EmailConfig,
    private readonly domains: SendingDomainsService,
    private readonly suppressions: SuppressionsService,
    @Inject(AUDIENCE_SNAPSHOTS) private readonly audiences: AudienceSnapshots,
    @Inject(BROADCAST_TEMPLATES) private readonly templates: BroadcastTemplates,
  ) {}

  async check(context: RequestContext, row: BroadcastRow, runner?: SqlRunner): Promise<void> {
    const missing: ErrorDetail[] = [];
    if (!row.from_email) missing.push({ param: 'from', message: 'is required to send' });
    if (!row.audience_id) missing.push({ param: 'audience_id', message: 'is required to send' });
    if (!row.template_id) missing.push({ param: 'template', message: 'is required to send' });
    if (missing.length)
      throw new AppError(EmailBroadcastErrors.BroadcastIncomplete, { details: missing });
    const problem = await this.senderProblem(row.workspace_id, row.from_email as string, runner);
    if (problem)
      throw new AppError(EmailBroadcastErrors.BroadcastSenderNotVerified, {
        details: [{ param: 'from', message: problem }],
      });
    if (!(await this.audiences.exists(context, row.audience_id as string)))
      throw new AppError(EmailBroadcastErrors.BroadcastAudienceUnknown, {
        details: [{ param: 'audience_id', message: `no audience ${row.audience_id}` }],
      });
    const live = await this.templates.liveVersion(
      row.workspace_id,
      row.template_id as string,
      runner,
    );
    if (!live)
      throw new AppError(EmailBroadcastErrors.BroadcastTemplateNotPublished, {
        details: [
          {
            param: 'template.id',
            message: await this.templates.noLiveVersionReason(
              row.workspace_id,
              row.template_id as string,
            ),
          },
        ],
      });
  }

  /** Why `from` cannot send, or undefined when its domain is a verified one of the workspace. */
  async senderProblem(
    workspaceId: string,
    from: string,
    runner?: SqlRunner,
  ): Promise<string | undefined> {
    const domain = senderDomainOf(from);
    const sender = (await this.domains.sendersFor(workspaceId, [domain], runner)).get(domain);
    if (!sender) return `${domain} is not a sending domain of this workspace`;
    if (!sender.verified) return `the sending domain ${domain} is not verified`;
    return undefined;
  }

  /**
   * 422 when nobody in the audience can receive the broadcast, or when the allowance covers none
   * of it (a part-covered broadcast goes out batch by batch and fails `quota_exceeded` where the
   * allowance runs out, as the SDK's send quota says). A send scheduled `at` is refused only when
   * an allowance is used up for the window it falls in (the SDK: "has used its broadcast
   * allowance for the current billing period"): one for a later UTC day or month waits for that
   * allowance to renew, and an audience larger than a whole allowance fails when it starts.
   */
  async checkReach(
    context: RequestContext,
    row: BroadcastRow,
    runner: SqlRunner,
    at?: Date,
  ): Promise<void> {
    const { sendable } = await this.audienceCounts(context, row, runner);
    if (sendable === 0)
      throw new AppError(EmailBroadcastErrors.BroadcastAudienceEmpty, {
        details: [{ param: 'audience_id', message: 'no contact can receive this broadcast' }],
      });
    const { limits, used } = await this.allowance(row.workspace_id, runner);
    const quota = sendQuotaOf(sendable, limits, used);
    if (quota.allowed > 0) return;
    const refusing = at ? usedUpIn(sendable, limits, used, at, new Date()) : quota;
    if (!refusing) return;
    throw new AppError(EmailBroadcastErrors.BroadcastQuotaExceeded, {
      details: [{ param: 'audience_id', message: quotaDetail(sendable, refusing) }],
    });
  }

  /** The send allowance for `recipients`, from the settings and what was sent this day and month. */
  async quota(workspaceId: string, recipients: number, runner: SqlRunner) {
    const { limits, used } = await this.allowance(workspaceId, runner);
    return sendQuotaOf(recipients, limits, used);
  }

  /** The allowances' limits and what the workspace sent in the current UTC day and month. */
  private async allowance(workspaceId: string, runner: SqlRunner) {
    const limits = {
      daily: this.config.EMAIL_DAILY_LIMIT,
      monthly: this.config.EMAIL_MONTHLY_LIMIT,
    };
    const used =
      limits.daily || limits.monthly
        ? await sentInWindows(runner, workspaceId)
        : { daily: 0, monthly: 0 };
    return { limits, used };
  }

  /**
   * total, addressable (has an email) and sendable (not suppressed for the category, nor opted
   * out in the preference projection), live, over the audience a page at a time.
   */
  async audienceCounts(context: RequestContext, row: BroadcastRow, runner: SqlRunner) {
    let total = 0;
    let addressable = 0;
    let sendable = 0;
    for await (const page of this.audiences.addresses(context, row.audience_id as string)) {
      total += page.length;
      const emails = page.filter((email): email is string => !!email);
      addressable += emails.length;
      const stopped = await this.suppressions.suppressedAmong(
        runner,
        row.workspace_id,
        emails,
        row.category,
        { preferences: this.config.PREFERENCES_ENFORCEMENT },
      );
      sendable += emails.length - stopped.size;
    }
    return { total, addressable, sendable };
  }
}

/**
 * The allowance, daily or monthly, that covers none of `recipients` in the UTC day or month `at`
 * falls in, when that is the current one; undefined when each is fresh by `at` or would never
 * cover the audience whole (that fails when the broadcast starts).
 */
function usedUpIn(
  recipients: number,
  limits: SendAllowanceLimits,
  used: { daily: number; monthly: number },
  at: Date,
  now: Date,
): EmailBroadcastSendQuota | undefined {
  const windows = [
    { window: 'daily' as const, prefix: 10 },
    { window: 'monthly' as const, prefix: 7 },
  ];
  for (const { window, prefix } of windows) {
    const limit = limits[window];
    if (!limit || recipients > limit) continue;
    if (at.toISOString().slice(0, prefix) !== now.toISOString().slice(0, prefix)) continue;
    const alone = sendQuotaOf(recipients, { daily: 0, monthly: 0, [window]: limit }, used);
    if (alone.allowed === 0) return alone;
  }
  return undefined;
}
