import type { RequestContext } from '@switchboard/contracts';
import { SmsSubjects } from '@switchboard/contracts';
import type { ServiceClient } from '@switchboard/platform';
import type { PasscodeCarrier, PasscodeSend, PasscodeSendResult } from './passcode-channels';
import { refusalOf, VERIFICATION_METADATA_KEY } from './passcode-channels';

/**
 * Passcodes by SMS: the system template `bird_otp_verification_expiry` through the SMS service,
 * from `VERIFY_SMS_FROM` or the workspace's sender for authentication messages. The SMS
 * service's rules all apply (senders, opt-outs, preferences); a refusal moves the plan on.
 */
export class SmsPasscodes implements PasscodeCarrier {
  readonly channel = 'sms' as const;

  constructor(
    private readonly services: ServiceClient,
    private readonly from: string | undefined,
  ) {}

  async send(context: RequestContext, send: PasscodeSend): Promise<PasscodeSendResult> {
    try {
      const message = await this.services.send(
        SmsSubjects.SendSystemMessage,
        {
          to: send.address,
          ...(this.from ? { from: this.from } : {}),
          template: {
            slug: 'bird_otp_verification_expiry',
            language: send.language,
            parameters: { code: send.code, minutes: send.minutes },
          },
          metadata: { [VERIFICATION_METADATA_KEY]: send.verificationId },
        },
        context,
      );
      if (message.status === 'rejected')
        return {
          ok: false,
          reason: 'channel_unavailable',
          error: message.last_error?.description ?? 'the SMS service rejected the send',
        };
      return { ok: true, messageId: message.id, from: message.from };
    } catch (err) {
      return { ok: false, reason: 'channel_unavailable', error: refusalOf(err) };
    }
  }
}
