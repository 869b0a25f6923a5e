import type { RequestContext, SmsMessage } from '@switchboard/contracts';
import { SmsErrors, SmsSubjects } from '@switchboard/contracts';
import type { ServiceClient } from '@switchboard/platform';
import type { PasscodeCarrier, PasscodeSend, PasscodeSendResult } from './passcode-channels';
import { passcodeMetadata, refusalOf } from './passcode-channels';

/** What the SMS service answers when the workspace does not hold `VERIFY_SMS_FROM`. */
const NOT_THE_WORKSPACE_SENDER: readonly string[] = [
  SmsErrors.SMSSenderNotConfigured,
  SmsErrors.SenderCategoryNotPermitted,
];

/**
 * Passcodes by SMS: the system template `bird_otp_verification_expiry` through the SMS service,
 * from `VERIFY_SMS_FROM` when the workspace holds it, else the workspace's sender for
 * authentication messages (contract section 11). The SMS service's rules all apply (senders,
 * opt-outs, preferences); a refusal moves the plan on.
 */
export class SmsPasscodes implements PasscodeCarrier {
  readonly channel = 'sms' as const;

  constructor(
    private readonly services: ServiceClient,
    private readonly from: string | undefined,
  ) {}

  async send(context: RequestContext, send: PasscodeSend): Promise<PasscodeSendResult> {
    try {
      let message: SmsMessage;
      try {
        message = await this.ask(context, send, this.from);
      } catch (err) {
        const code = (err as { code?: string }).code;
        if (!this.from || !code || !NOT_THE_WORKSPACE_SENDER.includes(code)) throw err;
        message = await this.ask(context, send, undefined);
      }
      if (message.status === 'rejected')
        return {
          ok: false,
          reason: 'channel_unavailable',
          error: message.last_error?.description ?? 'the SMS service rejected the send',
        };
      return { ok: true, messageId: message.id, from: message.from };
    } catch (err) {
      return refusalOf(err);
    }
  }

  /**
   * The attempt's key travels as the system send's `dedupe_key` rather than as an
   * Idempotency-Key: the SMS service then keeps passcodes in its group commit of single sends.
   */
  private ask(context: RequestContext, send: PasscodeSend, from: string | undefined) {
    const { idempotencyKey, ...plain } = context;
    return this.services.send(
      SmsSubjects.SendSystemMessage,
      {
        to: send.address,
        ...(idempotencyKey ? { dedupe_key: idempotencyKey } : {}),
        ...(from ? { from } : {}),
        template: {
          slug: 'bird_otp_verification_expiry',
          language: send.language,
          parameters: { code: send.code, minutes: send.minutes },
        },
        metadata: passcodeMetadata(send),
      },
      { ...plain, idempotencyFingerprint: undefined },
    );
  }
}
