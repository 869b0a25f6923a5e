/**
 * The mailbox provider of a recipient, as the SDK's lowercase classifier (`gmail`, `microsoft`,
 * `yahoo`, `apple`, ...), from the domain of its address: the consumer domains of the largest
 * providers. A company's own domain hosted by one of them is not recognised by its name and stays
 * unclassified (null); MX hosts are not looked at.
 *
 * Events carry it (`mailboxProviderOf`) and the stats fold groups by it through the SQL function
 * `email.mailbox_provider_of` that a migration renders from these lists (`mailboxProviderSql`):
 * a change here needs a migration that replaces that function, or the two disagree.
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

/** The provider of an address or a bare domain (any case), or null when unclassified. */
export function mailboxProviderOf(address: string): string | null {
  const domain = address.slice(address.lastIndexOf('@') + 1).toLowerCase();
  const exact = byDomain.get(domain);
  if (exact) return exact;
  return families.find(([, pattern]) => pattern.test(domain))?.[0] ?? null;
}

/** The body of `email.mailbox_provider_of(domain text)`: the same lists, for the fold. */
export function mailboxProviderSql(): string {
  const quoted = (value: string) => `'${value.replace(/'/g, "''")}'`;
  const exact = [...byDomain].map(
    ([domain, provider]) => `(${quoted(domain)}, ${quoted(provider)})`,
  );
  const regional = FAMILIES.map(
    ([provider, names]) =>
      `WHEN lower(domain) ~ ${quoted(familyPattern(names))} THEN ${quoted(provider)}`,
  );
  return `SELECT coalesce(
      (SELECT p FROM (VALUES ${exact.join(', ')}) AS known (d, p) WHERE d = lower(domain)),
      CASE ${regional.join(' ')} END)`;
}
