import { domainToASCII } from 'node:url';

/** One bare address split at its last `@`, or undefined when it is not well formed. */
export interface EmailParts {
  local: string;
  domain: string;
}

// RFC 5322 dot-atom for the mailbox, its atoms widened by RFC 6531 (SMTPUTF8) to non-ASCII
// characters that show (`δοκιμή@`, `用户@`): not control, format, separator, private-use or
// unassigned ones, not those Unicode says to render as nothing (Hangul fillers, variation
// selectors, the braille blank), and no atom opening with a combining mark. RFC 1035 host names
// (letters, digits, hyphens) for the domain, whose last label is alphabetic or an IDN's `xn--`
// form. Quoted local parts and address literals are legal but not accepted by mailbox
// providers, so they count as malformed.
const WIDE = '(?![\\p{C}\\p{Z}\\p{Default_Ignorable_Code_Point}\\u2800])[^\\x00-\\x7f]';
const ATEXT = `(?:[A-Za-z0-9!#$%&'*+/=?^_\`{|}~-]|${WIDE})`;
const ATOM = `(?!\\p{M})${ATEXT}+`;
const DOT_ATOM = new RegExp(`^${ATOM}(?:\\.${ATOM})*$`, 'u');
/** RFC 5321's limits, in octets (UTF-8 under SMTPUTF8): the local part, and the whole path. */
const LOCAL_OCTETS = 64;
const PATH_OCTETS = 254;
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
  // Measured as RFC 6532 asks it to be sent, composed (NFC): `é` as one character, not two.
  const octets = Buffer.byteLength(local.normalize('NFC'));
  if (octets > LOCAL_OCTETS || octets + 1 + domain.length > PATH_OCTETS) return undefined;
  if (!DOT_ATOM.test(local)) return undefined;
  const labels = domain.split('.');
  if (labels.length < 2 || !labels.every((label) => LABEL.test(label))) return undefined;
  if (!TOP_LABEL.test(labels[labels.length - 1])) return undefined;
  return { local, domain };
}
