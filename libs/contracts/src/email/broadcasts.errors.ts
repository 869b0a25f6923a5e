import { codesOf } from '../errors/error-definition';
import type { ErrorDefinition } from '../errors/error-definition';

/**
 * Error codes of email broadcasts (E01130-E01139, E04115-E04119, E06035-E06039). Deleting a
 * template a broadcast still needs is the templates area's `EmailTemplateInUse`.
 */
export const EmailBroadcastErrorCatalog = {
  E01130: {
    status: 422,
    type: 'validation_error',
    name: 'BroadcastIncomplete',
    message: 'The broadcast cannot send: it needs a from address, an audience and a template.',
    description:
      'A broadcast sends once it has three things: `from` on a verified sending domain, `audience_id`, and a `template` with a published version. `details` names each missing field. A create with `send: true` that lacks one is refused and nothing is saved; a draft may lack them until it is sent.',
  },
  E01131: {
    status: 422,
    type: 'validation_error',
    name: 'BroadcastSenderNotVerified',
    message: 'The broadcast’s from address is not on a verified sending domain of this workspace.',
    description:
      'A broadcast sends from a sending domain of the workspace once it is `verified` (`POST /v1/email/domains`, publish its records, then `POST /v1/email/domains/{domain_id}/verify`). The shared onboarding domain reaches only the workspace’s own users, so broadcasts cannot use it. `details[0].param` is `from`.',
  },
  E01132: {
    status: 422,
    type: 'validation_error',
    name: 'BroadcastTemplateNotPublished',
    message: 'The broadcast’s template does not exist or has no published version.',
    description:
      'A broadcast sends the published (live) version of its template, fixed when the broadcast is prepared. Submit a version of the template (`POST /v1/email/templates/{template_id}/versions/{version_id}/submit`) before sending, or point the broadcast at another template. `details[0].param` is `template.id`.',
  },
  E01133: {
    status: 422,
    type: 'validation_error',
    name: 'BroadcastAudienceUnknown',
    message: 'The broadcast’s audience does not exist in this workspace.',
    description:
      'The `audience_id` must name an audience of this workspace (`GET /v1/audiences`). It was deleted, or it belongs to another workspace.',
  },
  E01134: {
    status: 422,
    type: 'validation_error',
    name: 'BroadcastScheduleWithoutSend',
    message: '`scheduled_at` requires `send: true`.',
    description:
      'A create schedules a broadcast only when it also sends it: give `send: true` with `scheduled_at` (30 seconds to 365 days ahead), or create a draft without `scheduled_at` and send it later with `POST /v1/email/broadcasts/{broadcast_id}/send`.',
  },
  E01135: {
    status: 422,
    type: 'validation_error',
    name: 'BroadcastAudienceRequired',
    message: 'The broadcast has no audience yet.',
    description:
      'Counts and the send quota are about the broadcast’s audience: set `audience_id` on the broadcast first (`PATCH /v1/email/broadcasts/{broadcast_id}`).',
  },
  E01136: {
    status: 422,
    type: 'validation_error',
    name: 'BroadcastIpPoolUnavailable',
    message: 'The IP pool is unknown or has no IPs to send from.',
    description:
      'This deployment sends through the shared pool only: omit `ip_pool_id` (the organization default) or give `ipp_shared`.',
  },
  E01137: {
    status: 422,
    type: 'validation_error',
    name: 'BroadcastAudienceEmpty',
    message: 'Nobody in the audience can receive this broadcast.',
    description:
      'A send, now or scheduled, needs at least one contact with an email address that is not suppressed for the broadcast’s category (nor opted out of email). Read the audience’s numbers with `GET /v1/email/broadcasts/{broadcast_id}/counts`. A scheduled broadcast whose audience is empty when it starts becomes `failed` with `failure_reason` `empty_audience`.',
  },
  E01138: {
    status: 422,
    type: 'validation_error',
    name: 'BroadcastQuotaExceeded',
    message: 'The broadcast would pass the email send allowance.',
    description:
      'The daily and monthly email allowances (`EMAIL_DAILY_LIMIT`, `EMAIL_MONTHLY_LIMIT`; unlimited when 0) cover every email the workspace sends. A broadcast sent now is refused when the allowance covers none of it: its audience is larger than a whole allowance, or less than a batch (1,000) is left; a scheduled one only when the allowance is used up for the UTC day or month it is scheduled in. A part-covered one goes out batch by batch until the allowance runs out, then fails `quota_exceeded`. Read `GET /v1/email/broadcasts/{broadcast_id}/send-quota` to see what fits, and schedule it for when the allowance renews.',
  },
  E04115: {
    status: 404,
    type: 'not_found_error',
    name: 'BroadcastNotFound',
    message: 'The broadcast does not exist.',
    description:
      'No broadcast with this ID exists in the workspace of the credential. A deleted draft is gone for good.',
  },
  E06035: {
    status: 409,
    type: 'conflict_error',
    name: 'BroadcastNotEditable',
    message: 'The broadcast has started sending or is final, so it can no longer be edited.',
    description:
      'Only a `draft` or `scheduled` broadcast can be updated. Once it is `accepted`, `sending` or in a final state its content and audience are fixed. Cancel it and create another one to send different content.',
  },
  E06036: {
    status: 409,
    type: 'conflict_error',
    name: 'BroadcastNotDeletable',
    message: 'Only a draft broadcast can be deleted.',
    description:
      'A broadcast that was sent or scheduled keeps its record for its recipients and counters. Cancel a `scheduled`, `accepted` or `sending` broadcast with `POST /v1/email/broadcasts/{broadcast_id}/cancel` instead.',
  },
  E06037: {
    status: 409,
    type: 'conflict_error',
    name: 'BroadcastAlreadySent',
    message: 'The broadcast has already started sending or is final.',
    description:
      'Send applies to a `draft` (now or at `scheduled_at`) or a `scheduled` broadcast (to send it now or move its time); sending an `accepted` one again dispatches it again. A `sending`, `sent`, `canceling`, `canceled` or `failed` broadcast cannot be sent again: create a new one.',
  },
  E06038: {
    status: 409,
    type: 'conflict_error',
    name: 'BroadcastNotCancelable',
    message: 'The broadcast is not scheduled, accepted or sending, so it cannot be canceled.',
    description:
      'Cancel stops a `scheduled`, `accepted` or `sending` broadcast (and answers its state again when it is already `canceling` or `canceled`). A `draft` was never sent: delete it instead. A `sent` or `failed` broadcast has nothing left to stop.',
  },
} as const satisfies Record<string, ErrorDefinition>;

/** The codes by name: `new AppError(EmailBroadcastErrors.BroadcastNotFound)`. */
export const EmailBroadcastErrors = codesOf(EmailBroadcastErrorCatalog);
