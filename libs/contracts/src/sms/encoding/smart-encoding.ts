import { isGsm7 } from './gsm7';

// Characters outside GSM-7 that have a close GSM-7 equivalent: one of them forces the whole body
// into UCS-2, so replacing them (the send option `smart_encoding`) often saves segments.
const REPLACEMENTS: ReadonlyMap<string, string> = new Map([
  // Quotes and primes.
  ...pairs('\u2018\u2019\u201a\u201b\u2032\u2035\u02bc\u02b9\u00b4\u0060', "'"),
  ...pairs('\u201c\u201d\u201e\u201f\u2033\u2036\u02ba\u00ab\u00bb', '"'),
  ...pairs('\u2039', '<'),
  ...pairs('\u203a', '>'),
  // Hyphens, dashes and the minus sign.
  ...pairs('\u2010\u2011\u2012\u2013\u2014\u2015\u2212\ufe58\ufe63', '-'),
  ...pairs('\u2026', '...'),
  ...pairs('\u2022\u2043', '-'),
  ...pairs('\u2044\u2215', '/'),
  // Non-breaking and other spaces, the tab; invisible formatting characters go.
  ...pairs('\u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009', ' '),
  ...pairs('\u200a\u202f\u205f\u3000\t', ' '),
  ...pairs('\u00ad\u200b\u200c\u200d\u2060\ufeff', ''),
]);

/**
 * The body `smart_encoding` sends: every character with a GSM-7 equivalent replaced, fullwidth
 * forms by their ASCII counterparts, when the result is entirely GSM-7. Otherwise (an emoji, a
 * non-Latin script) the replacement is all-or-nothing: the text comes back exactly as given.
 */
export function applySmartEncoding(text: string): string {
  if (isGsm7(text)) return text;
  let replaced = '';
  for (const char of text) replaced += replacementFor(char);
  return isGsm7(replaced) ? replaced : text;
}

function replacementFor(char: string): string {
  const unit = char.charCodeAt(0);
  const halfwidth = unit >= 0xff01 && unit <= 0xff5e ? String.fromCharCode(unit - 0xfee0) : char;
  return REPLACEMENTS.get(halfwidth) ?? halfwidth;
}

function pairs(chars: string, replacement: string): Array<[string, string]> {
  return [...chars].map((char) => [char, replacement]);
}
