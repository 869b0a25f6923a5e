import type { RequestContext } from '@switchboard/contracts';
import {
  WhatsAppConnectSubjects,
  WhatsAppMessageSubjects,
  WhatsAppTemplateSubjects,
} from '@switchboard/contracts';
import type { ServiceClient } from '@switchboard/platform';
import type { PasscodeCarrier, PasscodeSend, PasscodeSendResult } from './passcode-channels';
import { refusalOf, VERIFICATION_METADATA_KEY } from './passcode-channels';

/**
 * Passcodes by WhatsApp: the workspace's first approved (`active`) `authentication` template,
 * from a connected number of the template's business account, with the code in the body and
 * the one-time-passcode button, as Meta requires of authentication templates. Mongolian, which
 * WhatsApp cannot carry, is sent in English.
 */
export class WhatsAppPasscodes implements PasscodeCarrier {
  readonly channel = 'whatsapp' as const;

  constructor(private readonly services: ServiceClient) {}

  async send(context: RequestContext, send: PasscodeSend): Promise<PasscodeSendResult> {
    try {
      const templates = await this.services.send(
        WhatsAppTemplateSubjects.List,
        { category: 'authentication', status: ['active'], limit: 1 },
        context,
      );
      const template = templates.data[0];
      if (!template)
        return {
          ok: false,
          reason: 'channel_unavailable',
          error: 'the workspace has no approved WhatsApp authentication template',
        };
      const numbers = await this.services.send(
        WhatsAppConnectSubjects.ListNumbers,
        { waba: template.waba, status: ['connected'], limit: 1 },
        context,
      );
      const from = numbers.data[0]?.phone_number;
      if (!from)
        return {
          ok: false,
          reason: 'channel_unavailable',
          error: `no connected WhatsApp number in the business account of template ${template.slug}`,
        };
      const language = templateLanguageFor(
        send.language === 'mn' ? 'en' : send.language,
        template.available_languages,
        template.default_language,
      );
      const code = { type: 'text', text: send.code };
      const message = await this.services.send(
        WhatsAppMessageSubjects.SendMessage,
        {
          body: {
            to: send.address,
            from,
            template: {
              slug: template.slug,
              language,
              components: [
                { type: 'body', parameters: [code] },
                { type: 'button', parameters: [code] },
              ],
            },
            metadata: { [VERIFICATION_METADATA_KEY]: send.verificationId },
          },
        },
        context,
      );
      if (message.status === 'rejected')
        return {
          ok: false,
          reason: 'channel_unavailable',
          error: message.last_error?.description ?? 'the WhatsApp service rejected the send',
        };
      return { ok: true, messageId: message.id, from };
    } catch (err) {
      return refusalOf(err);
    }
  }
}

/**
 * The template's translation for a verification's language tag, as the SDK's `options.language`
 * falls back: the tag (`nb-NO`, or Meta's spelling `nb_NO`), its base language (`nb`, or any of
 * its regions), then English (`en`, or any region of it), else the template's default.
 */
export function templateLanguageFor(tag: string, available: string[], fallback: string): string {
  const baseOf = (language: string) => language.split(/[-_]/)[0].toLowerCase();
  const pick = (base: string) =>
    available.find((language) => language.toLowerCase() === base) ??
    available.find((language) => baseOf(language) === base);
  const exact = available.find(
    (language) => language.replace('_', '-').toLowerCase() === tag.toLowerCase(),
  );
  return exact ?? pick(baseOf(tag)) ?? pick('en') ?? fallback;
}
