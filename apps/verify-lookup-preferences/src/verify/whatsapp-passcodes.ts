import type { RequestContext } from '@switchboard/contracts';
import {
  WhatsAppConnectSubjects,
  WhatsAppMessageSubjects,
  WhatsAppTemplateSubjects,
} from '@switchboard/contracts';
import type { ServiceClient } from '@switchboard/platform';
import type { PasscodeCarrier, PasscodeSend, PasscodeSendResult } from './passcode-channels';
import { passcodeMetadata, refusalOf } from './passcode-channels';

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
            metadata: passcodeMetadata(send),
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

/** Verify's tags that Meta spells otherwise: Norwegian is Bokmål (`nb`) there. */
const META_SPELLINGS: Record<string, string[]> = {
  no: ['nb'],
  'nb-no': ['nb'],
  'zh-tw': ['zh_TW', 'zh_HK'],
};

/**
 * The template's translation for a verification's language tag, as the SDK's `options.language`
 * falls back: the tag (`nb-NO`, or Meta's spelling `nb_NO`, `no` as `nb`), its base language
 * (the bare one, the template's default when it is a region of it, or any region), then English
 * likewise, else the template's default.
 */
export function templateLanguageFor(tag: string, available: string[], fallback: string): string {
  const lower = (language: string) => language.replace('_', '-').toLowerCase();
  const baseOf = (language: string) => lower(language).split('-')[0];
  const has = (language: string) => available.find((held) => lower(held) === lower(language));
  const pick = (base: string) =>
    has(base) ??
    (baseOf(fallback) === base ? has(fallback) : undefined) ??
    available.find((held) => baseOf(held) === base);
  const spelled = [tag, ...(META_SPELLINGS[lower(tag)] ?? [])];
  for (const language of spelled) {
    const found = has(language);
    if (found) return found;
  }
  for (const language of spelled) {
    const found = pick(baseOf(language));
    if (found) return found;
  }
  return pick('en') ?? fallback;
}
