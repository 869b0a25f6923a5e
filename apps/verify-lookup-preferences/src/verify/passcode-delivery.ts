import { Inject, Injectable } from '@nestjs/common';
import type { RequestContext } from '@switchboard/contracts';
import { wakeRelay } from '@switchboard/background';
import { inPgTransaction, newId } from '@switchboard/persistence';
import { VERIFY_LOOKUP_PREFERENCES_CONFIG } from '../config/verify-lookup-preferences.config';
import type { VerifyLookupPreferencesConfig } from '../config/verify-lookup-preferences.config';
import { verifyEvent } from './verification.mapper';
import { testRecipientsOf } from './test-recipients';
import { PASSCODE_CARRIERS } from './passcode-channels';
import type { PasscodeCarrier, PasscodeFailureReason } from './passcode-channels';
import type { PasscodeChannel } from './verification-rules';
import { VerificationsRepository } from './verifications.repository';
import type { VerificationRow } from './verifications.repository';

/** How a passcode went out: the verification after it, and each channel that refused. */
export interface DeliveryOutcome {
  verification: VerificationRow;
  sent: boolean;
  refusals: Array<{ channel: string; reason: PasscodeFailureReason; error: string }>;
}

/**
 * Hands a passcode to the plan's channels from `from`, one at a time, until one takes it. Each
 * try is an attempt (the first recorded by the caller with the passcode, the next ones here,
 * spending no send slot) and each answer its `verify.attempt.sent` or `.undelivered` event.
 */
@Injectable()
export class PasscodeDelivery {
  constructor(
    @Inject(PASSCODE_CARRIERS) private readonly carriers: Map<PasscodeChannel, PasscodeCarrier>,
    private readonly repository: VerificationsRepository,
    @Inject(VERIFY_LOOKUP_PREFERENCES_CONFIG) config: VerifyLookupPreferencesConfig,
  ) {
    this.testRecipients = testRecipientsOf(config);
  }

  /** Test recipients are answered as sent without any channel being asked. */
  private readonly testRecipients: ReadonlySet<string>;

  async deliver(
    context: RequestContext,
    row: VerificationRow,
    code: string,
    first: { attemptId: string; index: number },
    minutes: number,
  ): Promise<DeliveryOutcome> {
    const refusals: DeliveryOutcome['refusals'] = [];
    let attemptId = first.attemptId;
    let verification = row;
    for (let index = first.index; index < row.channels.length; index++) {
      const channel = row.channels[index] as PasscodeChannel;
      const address = addressFor(row, channel);
      if (index > first.index) {
        attemptId = newId('vat');
        await this.repository.insertAttempt(this.repository.pool, {
          id: attemptId,
          workspace_id: row.workspace_id,
          verification_id: row.id,
          channel,
          address,
          countsTowardCap: false,
        });
      }
      const carrier = this.carriers.get(channel);
      const result = this.testRecipients.has(address)
        ? ({ ok: true, messageId: `test_${attemptId}`, from: null } as const)
        : carrier
          ? await carrier.send(context, {
              verificationId: row.id,
              address,
              code,
              language: row.language,
              minutes,
            })
          : ({
              ok: false,
              reason: 'channel_unavailable',
              error: `${channel} is not enabled`,
            } as const);
      const now = new Date();
      if (result.ok) {
        verification = await inPgTransaction(this.repository.pool, async (runner) => {
          const updated = await this.repository.attemptSent(runner, attemptId, row.id, {
            messageId: result.messageId,
            sender: result.from,
            channel,
            channelIndex: index,
          });
          await this.repository.events(runner, [
            verifyEvent('verify.attempt.sent', updated, now, {
              channel,
              address,
              from: result.from,
              sent_at: now.toISOString(),
            }),
          ]);
          return updated;
        });
        wakeRelay(this.repository.pool, 'verify_lookup_preferences');
        return { verification, sent: true, refusals };
      }
      refusals.push({ channel, reason: result.reason, error: result.error });
      await inPgTransaction(this.repository.pool, async (runner) => {
        await this.repository.attemptRefused(runner, attemptId, row.id, {
          reason: result.reason,
          error: result.error,
          channelIndex: index,
        });
        await this.repository.events(runner, [
          verifyEvent('verify.attempt.undelivered', row, now, {
            channel,
            address,
            reason: result.reason,
            error: result.error,
            failed_at: now.toISOString(),
          }),
        ]);
      });
    }
    wakeRelay(this.repository.pool, 'verify_lookup_preferences');
    return { verification, sent: false, refusals };
  }
}

/** The address a channel sends to: the phone number on SMS and WhatsApp, the email on email. */
export function addressFor(row: VerificationRow, channel: string): string {
  return (channel === 'email' ? row.email : row.phone_number) as string;
}
