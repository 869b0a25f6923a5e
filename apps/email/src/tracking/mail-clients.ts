import { sqlLiteral } from '@switchboard/persistence';
import { PROXY_AGENTS } from './prefetch';
/**
 * The mail client, operating system and device type behind an open or a click, from its user
 * agent: the SDK's `email_client` (`Gmail`, `Apple Mail`, `Outlook`, ...), `os` (`iOS`,
 * `Android`, `Windows`, `macOS`, ...) and `device_type` (`mobile`, `tablet`, `desktop`). Each is
 * null when the agent does not tell: an inbox proxy hides the device behind it, and a browser
 * opening webmail does not say which webmail.
 *
 * The stats fold classifies through the SQL function `email.mail_client_of`, which a migration
 * holds as `mailClientSql` rendered these rules; the rules use only what JavaScript and
 * PostgreSQL regular expressions read alike (literals, classes, alternation), matched
 * case-insensitively. A change here needs a migration that replaces that function with the new
 * rendering (a spec compares the migrated function with it).
 */

type Rule = readonly [value: string, pattern: string];

/**
 * First match wins. Proxies and desktop clients before the browsers they embed. Matched without
 * regard to case, so a short token needs what surrounds it (`CrOS` is in `MiCROSoft`).
 */
const CLIENTS: readonly Rule[] = [
  ['Gmail', 'GoogleImageProxy|ggpht\\.com'],
  ['Yahoo Mail', 'YahooMailProxy'],
  ['Apple Mail', '^Mozilla/5\\.0$'],
  ['Outlook', 'Microsoft Outlook|MSOffice|ms-office|Outlook-iOS|Outlook-Android'],
  ['Thunderbird', 'Thunderbird/'],
  ['Windows Mail', 'Windows-Mail|WindowsMail'],
  ['Gmail', 'Gmail'],
  ['Samsung Email', 'SamsungEmail'],
  // Apple's WebKit without a browser's name after it: Mail on iOS, iPadOS and macOS.
  [
    'Apple Mail',
    '(iPhone|iPad|iPod|Macintosh).*AppleWebKit/[0-9.]+ \\(KHTML, like Gecko\\)( Mobile/[0-9A-Za-z]+)?$',
  ],
];

const SYSTEMS: readonly Rule[] = [
  ['iOS', 'iPhone|iPad|iPod|Outlook-iOS'],
  ['Android', 'Android'],
  ['ChromeOS', '[(;] ?CrOS '],
  ['Windows', 'Windows|ms-office|MSOffice'],
  ['macOS', 'Macintosh|Mac OS X'],
  ['Linux', 'Linux|X11'],
];

/**
 * An iPad says `Mobile/...` too; an Android phone says `Mobile`, a tablet does not; Windows
 * says `Tablet PC` on touch laptops.
 */
const DEVICES: readonly Rule[] = [
  ['desktop', 'Windows NT|ms-office|MSOffice'],
  ['tablet', 'iPad|Tablet'],
  ['mobile', 'iPhone|iPod|Mobile|Outlook-iOS|Outlook-Android'],
  ['tablet', 'Android'],
  ['desktop', 'Windows|ms-office|MSOffice|Macintosh|[(;] ?CrOS |X11|Linux'],
];

/** A proxy fetches for every device: only the client is known. */
const PROXY = `${PROXY_AGENTS}|^Mozilla/5\\.0$`;

export interface MailClient {
  email_client: string | null;
  os: string | null;
  device_type: string | null;
}

// `s`: a dot matches a line break too, as in PostgreSQL.
const compiled = (rules: readonly Rule[]) =>
  rules.map(([value, pattern]) => [value, new RegExp(pattern, 'is')] as const);
const [clients, systems, devices] = [CLIENTS, SYSTEMS, DEVICES].map(compiled);
const proxy = new RegExp(PROXY, 'is');

const first = (rules: ReturnType<typeof compiled>, agent: string) =>
  rules.find(([, pattern]) => pattern.test(agent))?.[0] ?? null;

/** The client, system and device of a user agent; all null when there is none. */
export function mailClientOf(userAgent: string | null | undefined): MailClient {
  const agent = (userAgent ?? '').replace(/^[ \t]+|[ \t]+$/g, '');
  if (!agent) return { email_client: null, os: null, device_type: null };
  const proxied = proxy.test(agent);
  return {
    email_client: first(clients, agent),
    os: proxied ? null : first(systems, agent),
    device_type: proxied ? null : first(devices, agent),
  };
}

/**
 * The body of `email.mail_client_of(agent text) RETURNS text[]`: `[email_client, os,
 * device_type]` by the same rules. No `FROM`, so PostgreSQL inlines it into the fold.
 */
export function mailClientSql(): string {
  const a = `btrim(coalesce(agent, ''), E' \\t')`;
  const firstOf = (rules: readonly Rule[]) =>
    `CASE ${rules.map(([value, pattern]) => `WHEN ${a} ~* ${sqlLiteral(pattern)} THEN ${sqlLiteral(value)}`).join(' ')} END`;
  const unlessProxied = (rules: readonly Rule[]) =>
    `CASE WHEN ${a} ~* ${sqlLiteral(PROXY)} THEN NULL ELSE ${firstOf(rules)} END`;
  return `SELECT CASE WHEN ${a} = '' THEN ARRAY[NULL, NULL, NULL]::text[]
      ELSE ARRAY[${firstOf(CLIENTS)}, ${unlessProxied(SYSTEMS)}, ${unlessProxied(DEVICES)}] END`;
}
