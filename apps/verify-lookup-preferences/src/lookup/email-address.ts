import { domainToASCII } from 'node:url';

/** One bare address split at its last `@`, or undefined when it is not well formed. */
export interface EmailParts {
  local: string;
  domain: string;
}

// RFC 5322 dot-atom for the mailbox, its atoms widened by RFC 6531 (SMTPUTF8) to any non-ASCII
// character that is printable (`δοκιμή@`, `用户@`); RFC 1035 host names (letters, digits,
// hyphens) for the domain, whose last label is alphabetic or an IDN's `xn--` form. Quoted local
// parts and address literals are legal but not accepted by mailbox providers, so they count as
// malformed.
const ATEXT = "(?:[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]|(?![\\p{C}\\p{Z}])[^\\x00-\\x7f])";
const DOT_ATOM = new RegExp(`^${ATEXT}+(?:\\.${ATEXT}+)*$`, 'u');
/** RFC 5321's limit on a local part, in octets (UTF-8 under SMTPUTF8). */
const LOCAL_OCTETS = 64;
const LABEL = /^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/;
const TOP_LABEL = /^([a-z]{2,63}|xn--[a-z0-9-]{1,59})$/;
/** Percent signs, white space, control and format characters (zero-width ones included). */
const NOT_IN_A_DOMAIN = /[%\s\p{Cc}\p{Cf}]/u;

/** A display name or a list is not one bare address: the API refuses it instead of guessing. */
export function looksLikeDisplayNameOrList(email: string): boolean {
  return /[<>]/.test(email) || (/[,;]/.test(email) && email.split('@').length > 2);
}

/** Whether a local part needs SMTPUTF8 (RFC 6531) on every hop to its mailbox. */
export function isInternationalLocalPart(local: string): boolean {
  return /[^\x00-\x7f]/.test(local);
}

export function parseEmailAddress(email: string): EmailParts | undefined {
  if (email.length > 254) return undefined;
  const at = email.lastIndexOf('@');
  if (at < 1) return undefined;
  const local = email.slice(0, at);
  const written = email.slice(at + 1);
  // The URL host parser under domainToASCII would repair these (`example%2ecom`, a tab, a
  // zero-width space) into another, valid domain: none belongs in a mail domain.
  if (NOT_IN_A_DOMAIN.test(written)) return undefined;
  // An internationalized domain is looked up in its ASCII (`xn--`) form, as DNS holds it.
  const domain = domainToASCII(written);
  if (domain.length > 253) return undefined;
  if (Buffer.byteLength(local) > LOCAL_OCTETS || !DOT_ATOM.test(local)) return undefined;
  const labels = domain.split('.');
  if (labels.length < 2 || !labels.every((label) => LABEL.test(label))) return undefined;
  if (!TOP_LABEL.test(labels[labels.length - 1])) return undefined;
  return { local, domain };
}
