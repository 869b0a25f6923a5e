import type { RequestContext } from '@switchboard/contracts';
import { EmailSubjects } from '@switchboard/contracts';
import type { ServiceClient } from '@switchboard/platform';
import type { PasscodeCarrier, PasscodeSend, PasscodeSendResult } from './passcode-channels';
import { passcodeMetadata, refusalOf } from './passcode-channels';
import { passcodeEmail } from './passcode-email';

/**
 * Passcodes by email through the email service, from `VERIFY_EMAIL_FROM` (default
 * `verify@<EMAIL_ONBOARDING_DOMAIN>`) to any address: the recipient is named as one the
 * onboarding domain may reach, which is what a passcode to a person signing up needs.
 * Transactional, so only an opt-out covering `all` mail stops it.
 */
export class EmailPasscodes implements PasscodeCarrier {
  readonly channel = 'email' as const;

  constructor(
    private readonly services: ServiceClient,
    private readonly from: string,
  ) {}

  async send(context: RequestContext, send: PasscodeSend): Promise<PasscodeSendResult> {
    const content = passcodeEmail(send.language, send.code, send.minutes);
    try {
      const message = await this.services.send(
        EmailSubjects.SendMessage,
        {
          body: {
            from: this.from,
            to: [send.address],
            subject: content.subject,
            text: content.text,
            html: content.html,
            category: 'transactional',
            metadata: passcodeMetadata(send),
          },
          workspace_user_emails: [send.address],
        },
        context,
      );
      return { ok: true, messageId: message.id, from: this.from };
    } catch (err) {
      return refusalOf(err);
    }
  }
}
