import type { SmsKeywordOperation } from '@switchboard/contracts';

/**
 * A default rule the platform ships for one country (and language where it ships several):
 * fixed keywords, a reply, the carrier-mandated suffix of a help reply. Keywords are written
 * normalised (upper case, no accents, single spaces), as `keywordKey` turns inbound text.
 */
export interface SystemKeywordRule {
  id: string;
  operation: Extract<SmsKeywordOperation, 'stop' | 'start' | 'help' | 'info'>;
  country: string;
  language: string | null;
  keywords: readonly string[];
  reply: string;
  replySuffix: string | null;
  /**
   * Opt-out words unambiguous enough to count inside a short message ("STOP please", "please
   * unsubscribe me"): the FCC's 2025 rule honours any reasonable way of saying stop. Words that
   * are everyday speech too (CANCEL, END, QUIT) count only as the whole message.
   */
  phraseKeywords?: readonly string[];
}

/** When the shipped catalog last changed (the defaults' `created_at` and `updated_at`). */
export const SYSTEM_RULES_UPDATED_AT = '2026-11-01T00:00:00.000Z';

const US_HELP_SUFFIX = 'Msg&data rates may apply. Reply STOP to opt out.';
const EN_STOP = ['STOP', 'STOPALL', 'STOP ALL', 'UNSUBSCRIBE', 'CANCEL', 'END', 'QUIT'];
const EN_STOP_PHRASE = ['STOP', 'STOPALL', 'UNSUBSCRIBE', 'OPTOUT', 'OPT OUT', 'REVOKE'];
const EN_REPLIES = {
  stop: 'You have been unsubscribed and will receive no further messages from this number. Reply START to resubscribe.',
  start:
    'You have been resubscribed and will receive messages from this number again. Reply STOP to unsubscribe.',
  help: 'This number sends automated messages. For help, contact the sender.',
};

type Rule = Omit<SystemKeywordRule, 'id'>;
const english = (country: string, language: string | null) => {
  const suffix = country === 'GB' ? 'Reply STOP to opt out.' : US_HELP_SUFFIX;
  return [
    {
      operation: 'stop',
      country,
      language,
      keywords: [...EN_STOP, 'REVOKE', 'OPTOUT', 'OPT OUT', 'OPT-OUT'],
      reply: EN_REPLIES.stop,
      replySuffix: null,
      phraseKeywords: EN_STOP_PHRASE,
    },
    {
      operation: 'start',
      country,
      language,
      keywords: country === 'GB' ? ['START', 'UNSTOP'] : ['START', 'UNSTOP', 'YES'],
      reply: EN_REPLIES.start,
      replySuffix: null,
    },
    {
      operation: 'help',
      country,
      language,
      keywords: ['HELP', 'INFO'],
      reply: EN_REPLIES.help,
      replySuffix: suffix,
    },
  ] satisfies Rule[];
};

const RULES: Rule[] = [
  ...english('US', null),
  ...english('CA', 'en'),
  {
    operation: 'stop',
    country: 'CA',
    language: 'fr',
    keywords: ['ARRET', 'ARRETER', 'DESABONNER', 'DESINSCRIRE', 'DESABONNEMENT'],
    reply:
      'Vous avez été désabonné et ne recevrez plus de messages de ce numéro. Répondez DEBUT pour vous réabonner.',
    replySuffix: null,
    phraseKeywords: ['ARRET', 'ARRETER', 'DESABONNER', 'DESINSCRIRE'],
  },
  {
    operation: 'start',
    country: 'CA',
    language: 'fr',
    keywords: ['DEBUT', 'REABONNER', 'ABONNER'],
    reply:
      'Vous avez été réabonné et recevrez à nouveau les messages de ce numéro. Répondez ARRET pour vous désabonner.',
    replySuffix: null,
  },
  {
    operation: 'help',
    country: 'CA',
    language: 'fr',
    keywords: ['AIDE'],
    reply: "Ce numéro envoie des messages automatisés. Pour de l'aide, contactez l'expéditeur.",
    replySuffix: 'Frais de messagerie possibles. Répondez ARRET pour vous désabonner.',
  },
  ...english('GB', null),
  {
    operation: 'stop',
    country: 'NL',
    language: null,
    keywords: ['STOP', 'STOPPEN', 'AFMELDEN', 'UITSCHRIJVEN', 'STOP ALLES'],
    reply:
      'Je bent afgemeld en ontvangt geen berichten meer van dit nummer. Stuur START om je weer aan te melden.',
    replySuffix: null,
    phraseKeywords: ['STOP', 'STOPPEN', 'AFMELDEN', 'UITSCHRIJVEN'],
  },
  {
    operation: 'start',
    country: 'NL',
    language: null,
    keywords: ['START', 'AANMELDEN'],
    reply:
      'Je bent weer aangemeld en ontvangt weer berichten van dit nummer. Stuur STOP om je af te melden.',
    replySuffix: null,
  },
  {
    operation: 'help',
    country: 'NL',
    language: null,
    keywords: ['HELP', 'INFO', 'HULP'],
    reply:
      'Dit nummer verstuurt automatische berichten. Neem voor hulp contact op met de afzender.',
    replySuffix: 'Stuur STOP om je af te melden.',
  },
  {
    operation: 'stop',
    country: 'DE',
    language: null,
    keywords: ['STOP', 'STOPP', 'ABMELDEN', 'ABBESTELLEN', 'KUNDIGEN', 'AUSTRAGEN'],
    reply:
      'Sie wurden abgemeldet und erhalten keine Nachrichten mehr von dieser Nummer. Senden Sie START, um sich wieder anzumelden.',
    replySuffix: null,
    phraseKeywords: ['STOP', 'STOPP', 'ABMELDEN', 'ABBESTELLEN', 'AUSTRAGEN'],
  },
  {
    operation: 'start',
    country: 'DE',
    language: null,
    keywords: ['START', 'ANMELDEN'],
    reply:
      'Sie sind wieder angemeldet und erhalten wieder Nachrichten von dieser Nummer. Senden Sie STOP, um sich abzumelden.',
    replySuffix: null,
  },
  {
    operation: 'help',
    country: 'DE',
    language: null,
    keywords: ['HILFE', 'HELP', 'INFO'],
    reply:
      'Diese Nummer versendet automatische Nachrichten. Wenden Sie sich für Hilfe an den Absender.',
    replySuffix: 'Senden Sie STOP, um sich abzumelden.',
  },
];

/** Fixed ids, in the order above: a default keeps its id across releases. */
const IDS = [
  'sks_01kdvdna000q9cna6fhpfwgmcj',
  'sks_01kdvdna01hxz8a92qkyh5gdar',
  'sks_01kdvdna02d7neb92pv27ckefd',
  'sks_01kdvdna036j3wp4zbfe4padwg',
  'sks_01kdvdna04he611bqbhv5bxxpa',
  'sks_01kdvdna05c497qews4q435n8t',
  'sks_01kdvdna06h4vxzj8dhhnc18dx',
  'sks_01kdvdna07a4ad6hgntvwjnyxh',
  'sks_01kdvdna08m7gycy5e20465md2',
  'sks_01kdvdna09s5hcsbzd6qkqe71z',
  'sks_01kdvdna0axx7a35wvqb7t4rnz',
  'sks_01kdvdna0b0hwmqrbfhpn6q4y0',
  'sks_01kdvdna0ctzckpx8kx530rvrr',
  'sks_01kdvdna0d1mmxxwghzsad33en',
  'sks_01kdvdna0e3rmqr30d4vnab48q',
  'sks_01kdvdna0fydnrmc5mkf0h4t1s',
  'sks_01kdvdna0gwb9nkdjjwqj8c2yg',
  'sks_01kdvdna0hg3ggxh8yy1425jsk',
];

export const SYSTEM_KEYWORD_RULES: readonly SystemKeywordRule[] = RULES.map((rule, index) => ({
  ...rule,
  id: IDS[index],
}));

/** The countries with default coverage: stop, start and help work there without setup. */
export const COVERED_COUNTRIES: ReadonlySet<string> = new Set(
  SYSTEM_KEYWORD_RULES.map(({ country }) => country),
);

/** The languages a country ships more than one of (CA: en, fr); empty for a single set. */
export function shippedLanguages(country: string): string[] {
  const languages = new Set(
    SYSTEM_KEYWORD_RULES.filter((rule) => rule.country === country && rule.language).map(
      (rule) => rule.language as string,
    ),
  );
  return [...languages];
}

export const systemRuleById = (id: string) => SYSTEM_KEYWORD_RULES.find((rule) => rule.id === id);
