import disposableDomains from 'disposable-email-domains';
import disposableWildcards from 'disposable-email-domains/wildcard.json';

/**
 * Throwaway-address providers: the `disposable-email-domains` package (pinned 1.0.62, a kept
 * list of ~121,500 domains), read once into a set; and its wildcard list, the ~400 providers
 * that hand out any subdomain (`anything.33mail.com`).
 */
const DISPOSABLE = new Set<string>(disposableDomains);
const DISPOSABLE_PARENTS = new Set<string>(disposableWildcards);

/**
 * Mailbox names that address a function rather than a person: the ones RFC 2142 reserves
 * (postmaster, abuse, hostmaster...) and the usual department aliases, written without the
 * separators people put in them (`no-reply`, `no_reply`, `do.not.reply` are `noreply`...).
 */
const ROLE_MAILBOXES = new Set([
  'abuse',
  'accounts',
  'admin',
  'administrator',
  'billing',
  'bounce',
  'bounces',
  'careers',
  'contact',
  'customerservice',
  'devnull',
  'dns',
  'donotreply',
  'enquiries',
  'feedback',
  'ftp',
  'help',
  'helpdesk',
  'hello',
  'hostmaster',
  'info',
  'inquiries',
  'jobs',
  'list',
  'mail',
  'mailerdaemon',
  'marketing',
  'news',
  'noc',
  'noreply',
  'office',
  'postmaster',
  'press',
  'privacy',
  'root',
  'sales',
  'security',
  'service',
  'support',
  'team',
  'unsubscribe',
  'usenet',
  'uucp',
  'webmaster',
  'www',
]);

/**
 * Consumer mailbox providers: the largest by share of consumer mail worldwide (the providers'
 * own published domains), kept short on purpose: a miss only omits the flag.
 */
const FREE_PROVIDERS = new Set([
  'gmail.com',
  'googlemail.com',
  'outlook.com',
  'hotmail.com',
  'hotmail.co.uk',
  'hotmail.fr',
  'live.com',
  'msn.com',
  'yahoo.com',
  'yahoo.co.uk',
  'yahoo.fr',
  'ymail.com',
  'icloud.com',
  'me.com',
  'mac.com',
  'aol.com',
  'proton.me',
  'protonmail.com',
  'gmx.com',
  'gmx.de',
  'gmx.net',
  'web.de',
  'mail.com',
  'yandex.com',
  'yandex.ru',
  'mail.ru',
  'zoho.com',
  'qq.com',
  '163.com',
  '126.com',
  'fastmail.com',
  'tutanota.com',
  'laposte.net',
  'orange.fr',
  'libero.it',
]);

/** The providers whose misspellings are common enough to suggest a correction for. */
const TYPO_TARGETS = [
  'gmail.com',
  'yahoo.com',
  'hotmail.com',
  'outlook.com',
  'icloud.com',
  'aol.com',
  'live.com',
  'googlemail.com',
  'protonmail.com',
  'hotmail.co.uk',
  'yahoo.co.uk',
];

/** The domain, or a parent of it on the wildcard list, is a throwaway provider's. */
export function isDisposableDomain(domain: string): boolean {
  if (DISPOSABLE.has(domain)) return true;
  for (let dot = domain.indexOf('.'); dot !== -1; dot = domain.indexOf('.', dot + 1))
    if (DISPOSABLE_PARENTS.has(domain.slice(dot + 1))) return true;
  return false;
}
export const isFreeProvider = (domain: string): boolean => FREE_PROVIDERS.has(domain);

/**
 * `john.doe+news` is `john.doe`'s; role names match case-insensitively, as servers route them,
 * and whatever dots, hyphens or underscores separate their words.
 */
export function isRoleMailbox(local: string): boolean {
  return ROLE_MAILBOXES.has(local.toLowerCase().split('+')[0].replace(/[._-]/g, ''));
}

/** Edit distance with adjacent transpositions (gmial -> gmail is one edit). */
function editDistance(a: string, b: string): number {
  const rows = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      rows[i][j] = Math.min(rows[i - 1][j] + 1, rows[i][j - 1] + 1, rows[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        rows[i][j] = Math.min(rows[i][j], rows[i - 2][j - 2] + 1);
      }
    }
  }
  return rows[a.length][b.length];
}

/** Real domains one edit from a provider's: companies and mail services people mean to type. */
const MEANT_AS_TYPED = new Set([
  'aon.com',
  'bol.com',
  'sol.com',
  'ao.com',
  'email.com',
  'cloud.com',
  'hive.com',
  'line.com',
]);

/** A name this short is one edit from many real ones: `aon`, `bol`, `hive`, `line`. */
const SHORT_NAME = 5;

/**
 * The provider domain this one looks like a misspelling of (one edit away), or undefined; a
 * domain that is itself a known provider, throwaway or real domain is taken as meant. A slip in
 * the suffix (`gmail.con`) or in a long name (`gmial.com`) is a typo whatever the domain's mail
 * hosts say (misspelt domains are registered to catch mail); one in a short name (`aoll.com`)
 * only when DNS says the domain takes no mail (`refusesMail`): not when it could not answer.
 */
export function suggestedDomain(domain: string, refusesMail = true): string | undefined {
  if (FREE_PROVIDERS.has(domain) || DISPOSABLE.has(domain) || MEANT_AS_TYPED.has(domain))
    return undefined;
  return TYPO_TARGETS.find((target) => {
    if (editDistance(domain, target) !== 1) return false;
    const name = target.slice(0, target.indexOf('.'));
    const inSuffix = domain.startsWith(`${name}.`);
    return inSuffix || name.length >= SHORT_NAME || refusesMail;
  });
}
