/** Generous: a single joined emoji is many code points (the SDK's point). */
const MAX_EMOJI_LENGTH = 64;
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
  // The longest emoji (a tag sequence, a couple with two skin tones) is under 32 UTF-16 units.
  if (value.length === 0 || value.length > MAX_EMOJI_LENGTH) return false;
  const segments = graphemes.segment(value)[Symbol.iterator]();
  const segment = (segments.next().value as Intl.SegmentData).segment;
  if (!segments.next().done) return false;
  if (KEYCAP.test(segment) || FLAG.test(segment)) return true;
  return PICTOGRAPH.test(segment) && !TEXT.test(segment.replace(/\p{Extended_Pictographic}/gu, ''));
}
