import type { EmailAddress } from '../email/messages';

/** Longest address accepted (RFC 5321's path limit less the angle brackets). */
export const MAX_EMAIL_LENGTH = 254;
/** Longest display name accepted. */
export const MAX_DISPLAY_NAME_LENGTH = 256;

/** RFC 5322 `atext`: what an unquoted local part may hold between its dots. */
const LOCAL_PART = /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*$/;
/** One DNS label: letters, digits and inner hyphens, 1 to 63 characters. */
const LABEL = /^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/;
/** A top-level domain is a name, never a number (`1.2.3.4` is no domain here). */
const TOP_LEVEL = /^([a-z]{2,63}|xn--[a-z0-9-]{1,59})$/;
/** C0 controls (CR and LF among them) and DEL, which no address or display name may carry. */
const CONTROL = /[\u0000-\u001f\u007f]/;

/**
 * The address, trimmed and lowercased, when it is one Switchboard will send to: ASCII, no spaces,
 * one `@`, an unquoted local part of at most 64 characters, and a domain of at least two labels
 * whose last is alphabetic (or an IDN `xn--` label); at most 254 characters in all. Otherwise
 * the reason it is not, as a message for the error details.
 */
export function checkEmail(raw: string): { email: string } | { problem: string } {
  const email = raw.trim().toLowerCase();
  if (email.length === 0) return { problem: 'must not be empty' };
  if (email.length > MAX_EMAIL_LENGTH)
    return { problem: `must be at most ${MAX_EMAIL_LENGTH} characters` };
  if (CONTROL.test(email) || /\s/.test(email))
    return { problem: 'must not contain spaces, line breaks or control characters' };
  const at = email.indexOf('@');
  if (at < 0 || at !== email.lastIndexOf('@'))
    return { problem: 'must be an email address with exactly one @' };
  const local = email.slice(0, at);
  const domain = email.slice(at + 1);
  if (local.length === 0 || local.length > 64 || !LOCAL_PART.test(local))
    return { problem: 'must be an email address: the part before @ is not valid' };
  const labels = domain.split('.');
  if (labels.length < 2 || !labels.every((label) => LABEL.test(label)))
    return { problem: 'must be an email address with a domain such as example.com' };
  if (!TOP_LEVEL.test(labels[labels.length - 1]))
    return { problem: 'must be an email address whose domain ends in a top-level name' };
  return { email };
}

export function isEmail(raw: string): boolean {
  return 'email' in checkEmail(raw);
}

/** A display name as stored: trimmed, empty means none. */
function checkName(raw: string): { name?: string } | { problem: string } {
  const name = raw.trim();
  if (CONTROL.test(name))
    return { problem: 'name must not contain line breaks or control characters' };
  if (name.length > MAX_DISPLAY_NAME_LENGTH)
    return { problem: `name must be at most ${MAX_DISPLAY_NAME_LENGTH} characters` };
  return name ? { name } : {};
}

/**
 * A mailbox string split into its display name and address: `Name <addr>`, `"Doe, Jane"
 * <addr>` (quotes removed, backslash escapes resolved) or `<addr>`. Undefined for text that is not
 * in mailbox form (a plain address).
 */
function splitMailbox(
  text: string,
): { name: string; address: string } | { problem: string } | undefined {
  const trimmed = text.trim();
  if (!trimmed.endsWith('>')) return undefined;
  const unbalanced = { problem: 'is not a mailbox such as "Jane Doe <jane@acme.com>"' };
  let name: string;
  let rest: string;
  if (trimmed.startsWith('"')) {
    name = '';
    let i = 1;
    for (; i < trimmed.length && trimmed[i] !== '"'; i++) {
      if (trimmed[i] === '\\') i++;
      if (i < trimmed.length) name += trimmed[i];
    }
    if (i >= trimmed.length) return unbalanced;
    rest = trimmed.slice(i + 1).trimStart();
  } else {
    const open = trimmed.indexOf('<');
    if (open < 0) return unbalanced;
    name = trimmed.slice(0, open);
    rest = trimmed.slice(open);
    if (/["<>]/.test(name)) return unbalanced;
  }
  if (!rest.startsWith('<')) return unbalanced;
  const address = rest.slice(1, -1);
  if (/[<>]/.test(address)) return unbalanced;
  return { name, address };
}

/**
 * One address as the API accepts it: a plain address string, an RFC 5322 mailbox string
 * (`Jane Doe <jane@acme.com>`, `"Doe, Jane" <jane@acme.com>`), or `{email, name?}`. Returns the
 * object form with the address trimmed and lowercased and the name trimmed (left out when
 * empty), or the problems, each with the path below `param` it concerns.
 */
export function parseAddress(
  value: unknown,
  param: string,
): { address: EmailAddress } | { problems: Array<{ param: string; message: string }> } {
  if (typeof value === 'string') {
    if (CONTROL.test(value))
      return {
        problems: [{ param, message: 'must not contain line breaks or control characters' }],
      };
    const mailbox = splitMailbox(value);
    if (!mailbox) {
      const checked = checkEmail(value);
      if ('problem' in checked) return { problems: [{ param, message: checked.problem }] };
      return { address: { email: checked.email } };
    }
    if ('problem' in mailbox) return { problems: [{ param, message: mailbox.problem }] };
    const checked = checkEmail(mailbox.address);
    const named = checkName(mailbox.name);
    if ('problem' in checked || 'problem' in named)
      return {
        problems: [
          ...('problem' in checked ? [{ param, message: checked.problem }] : []),
          ...('problem' in named ? [{ param, message: named.problem }] : []),
        ],
      };
    return { address: { email: checked.email, ...named } };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return {
      problems: [
        {
          param,
          message:
            'must be an email address, a mailbox such as "Jane Doe <jane@acme.com>", or an object {email, name}',
        },
      ],
    };
  const problems: Array<{ param: string; message: string }> = [];
  for (const key of Object.keys(value))
    if (key !== 'email' && key !== 'name')
      problems.push({ param: `${param}.${key}`, message: 'is not a known field' });
  const { email, name } = value as { email?: unknown; name?: unknown };
  let address: EmailAddress | undefined;
  if (!Object.hasOwn(value, 'email') || email === undefined)
    problems.push({ param: `${param}.email`, message: 'is required' });
  else if (typeof email !== 'string')
    problems.push({ param: `${param}.email`, message: 'must be a string' });
  else {
    const checked = checkEmail(email);
    if ('problem' in checked) problems.push({ param: `${param}.email`, message: checked.problem });
    else address = { email: checked.email };
  }
  let named: { name?: string } = {};
  if (Object.hasOwn(value, 'name') && name !== undefined && name !== null) {
    if (typeof name !== 'string')
      problems.push({ param: `${param}.name`, message: 'must be a string' });
    else {
      const checked = checkName(name);
      if ('problem' in checked)
        problems.push({ param: `${param}.name`, message: checked.problem.replace(/^name /, '') });
      else named = checked;
    }
  }
  if (problems.length || !address) return { problems };
  return { address: { ...address, ...named } };
}
