const graphemes = new Intl.Segmenter('en', { granularity: 'grapheme' });

/** A keycap (`1️⃣`, `#️⃣`) or a flag (two regional indicators): emoji without a pictograph. */
const KEYCAP = /^[#*0-9]\uFE0F?\u20E3$/u;
const FLAG = /^\p{Regional_Indicator}{2}$/u;
const PICTOGRAPH = /\p{Extended_Pictographic}/u;
/** Anything a person types as text: a letter, a digit or punctuation outside a keycap. */
const TEXT = /[\p{L}\p{N}\p{P}\p{Z}]/u;

/**
 * Whether `value` is exactly one emoji, as WhatsApp takes a reaction: one grapheme (a joined
 * family, a skin tone or a tag sequence is one, whatever its code points) that is a pictograph, a
 * flag or a keycap, with no text beside it.
 */
export function isOneEmoji(value: string): boolean {
  const segments = [...graphemes.segment(value)];
  if (segments.length !== 1) return false;
  const [{ segment }] = segments;
  if (KEYCAP.test(segment) || FLAG.test(segment)) return true;
  return PICTOGRAPH.test(segment) && !TEXT.test(segment.replace(/\p{Extended_Pictographic}/gu, ''));
}
