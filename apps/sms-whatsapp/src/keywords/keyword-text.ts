/**
 * How inbound text meets keywords. Carriers match the whole message as the keyword, so "stop",
 * " Stop! ", "STOP." and "Arrêt" are the keywords STOP and ARRET: trimmed, case-folded, accents
 * dropped, punctuation and symbols around the words dropped, runs of spaces made one.
 */

/** Letters, digits and inner `-`/`'` stay; everything else is a separator. */
const SEPARATORS = /[^\p{L}\p{N}'-]+/gu;
const COMBINING_MARKS = /\p{M}+/gu;

/** The normalised form of a keyword or of a whole inbound message (`''` when nothing is left). */
export function keywordKey(text: string): string {
  return text
    .normalize('NFKD')
    .replace(COMBINING_MARKS, '')
    .toUpperCase()
    .replace(SEPARATORS, ' ')
    .split(' ')
    .map((word) => word.replace(/^['-]+|['-]+$/g, ''))
    .filter((word) => word.length > 0)
    .join(' ');
}

/** Longest message read as a phrase around an opt-out word ("please stop", "STOP texting me"). */
export const MAX_PHRASE_WORDS = 5;

/**
 * Whether a short message says one of `words` (normalised, one or two words each) at its start
 * or its end: "STOP please", "please unsubscribe me", "opt out now". The FCC's 2025 revocation
 * rule honours any reasonable way of saying stop; an opt-out word leading or closing a message of
 * at most five words is that, while a longer message is conversation, left to the workspace.
 */
export function saysAtEdge(key: string, words: readonly string[]): string | undefined {
  const parts = key.split(' ');
  if (parts.length > MAX_PHRASE_WORDS) return undefined;
  for (const word of words) {
    const size = word.split(' ').length;
    if (size > parts.length) continue;
    const head = parts.slice(0, size).join(' ');
    const tail = parts.slice(parts.length - size).join(' ');
    if (head === word || tail === word) return word;
  }
  return undefined;
}
