import { sqlLiteral } from '@switchboard/persistence';
/**
 * The mailbox provider of a recipient, as the SDK's lowercase classifier (`gmail`, `microsoft`,
 * `yahoo`, `apple`, ...), from the domain of its address: the consumer domains of the largest
 * providers. A company's own domain hosted by one of them is not recognised by its name and stays
 * unclassified (null); MX hosts are not looked at.
 *
 * Events carry it (`mailboxProviderOf`) and the stats fold groups by it through the SQL function
 * `email.mailbox_provider_of`, which a migration holds as `mailboxProviderSql` rendered these
 * lists: a change here needs a migration that replaces that function with the new rendering (a
 * spec compares the migrated function with it).
 */

/** Providers serving one name in many countries: `hotmail.co.uk`, `yahoo.fr`, `live.nl`. */
const FAMILIES: ReadonlyArray<readonly [provider: string, names: readonly string[]]> = [
  ['microsoft', ['outlook', 'hotmail', 'live', 'msn', 'windowslive', 'passport']],
  ['yahoo', ['yahoo', 'ymail', 'rocketmail']],
];

/** Exact consumer domains. */
const DOMAINS: ReadonlyArray<readonly [provider: string, domains: readonly string[]]> = [
  ['gmail', ['gmail.com', 'googlemail.com']],
  ['yahoo', ['aol.com', 'aim.com', 'aol.co.uk', 'aol.de', 'aol.fr', 'verizon.net', 'att.net']],
  ['yahoo', ['sbcglobal.net', 'bellsouth.net', 'frontier.com']],
  ['apple', ['icloud.com', 'me.com', 'mac.com']],
  ['proton', ['proton.me', 'protonmail.com', 'protonmail.ch', 'pm.me']],
  ['gmx', ['gmx.com', 'gmx.net', 'gmx.de', 'gmx.at', 'gmx.ch', 'gmx.fr', 'gmx.co.uk']],
  ['gmx', ['web.de', 'mail.com']],
  ['t-online', ['t-online.de', 'magenta.de']],
  ['orange', ['orange.fr', 'wanadoo.fr']],
  ['free', ['free.fr']],
  ['libero', ['libero.it']],
  ['comcast', ['comcast.net', 'xfinity.com']],
  ['zoho', ['zoho.com', 'zohomail.com', 'zohomail.eu']],
  ['fastmail', ['fastmail.com', 'fastmail.fm']],
  ['yandex', ['yandex.ru', 'yandex.com', 'ya.ru']],
  ['mail.ru', ['mail.ru', 'bk.ru', 'inbox.ru', 'list.ru']],
  ['tencent', ['qq.com', 'foxmail.com']],
  ['netease', ['163.com', '126.com', 'yeah.net']],
  ['naver', ['naver.com']],
];

/** A family name followed by a country's public suffix: `.com`, `.fr`, `.co.uk`, `.com.br`. */
const familyPattern = (names: readonly string[]) =>
  `^(${names.join('|')})\\.((co|com)\\.)?[a-z]{2,3}$`;

const byDomain = new Map(
  DOMAINS.flatMap(([provider, domains]) => domains.map((domain) => [domain, provider] as const)),
);
const families = FAMILIES.map(
  ([provider, names]) => [provider, new RegExp(familyPattern(names))] as const,
);

/** The domain of an address as the stats fold reads it: after its last `@`, lowercased. */
export function domainOf(address: string): string {
  return address.slice(address.lastIndexOf('@') + 1).toLowerCase();
}

/** The provider of an address (any case), or null when unclassified. */
export function mailboxProviderOf(address: string): string | null {
  const domain = domainOf(address);
  const exact = byDomain.get(domain);
  if (exact) return exact;
  return families.find(([, pattern]) => pattern.test(domain))?.[0] ?? null;
}

/**
 * The body of `email.mailbox_provider_of(domain text)`: the same lists. One `CASE` and no `FROM`,
 * so PostgreSQL inlines it into the fold instead of calling it per row.
 */
export function mailboxProviderSql(): string {
  const providers = [...new Set(DOMAINS.map(([provider]) => provider))];
  const exact = providers.map((provider) => {
    const domains = DOMAINS.filter(([p]) => p === provider).flatMap(([, list]) => list);
    return `WHEN lower(domain) IN (${domains.map(sqlLiteral).join(', ')}) THEN ${sqlLiteral(provider)}`;
  });
  const regional = FAMILIES.map(
    ([provider, names]) =>
      `WHEN lower(domain) ~ ${sqlLiteral(familyPattern(names))} THEN ${sqlLiteral(provider)}`,
  );
  return `SELECT CASE ${[...exact, ...regional].join(' ')} END`;
}
