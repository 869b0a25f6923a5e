import fc from 'fast-check';
import { isOneEmoji } from './reaction-emoji';

describe('isOneEmoji', () => {
  it.each([
    ['👍', 'a pictograph'],
    ['👍🏽', 'with a skin tone'],
    ['❤️', 'with a variation selector'],
    ['👩‍❤️‍💋‍👨', 'a joined sequence of many code points'],
    ['🧑🏻‍❤️‍💋‍🧑🏿', 'a couple kissing with two skin tones (ten code points)'],
    ['🇳🇱', 'a flag'],
    ['1️⃣', 'a keycap'],
    ['🏴󠁧󠁢󠁳󠁣󠁴󠁿', 'a tag sequence'],
  ])('takes %s (%s)', (emoji) => {
    expect(isOneEmoji(emoji)).toBe(true);
  });

  it.each([
    ['', 'nothing'],
    ['👍👍', 'two emoji'],
    ['👍 ', 'an emoji and a space'],
    ['a', 'a letter'],
    ['1', 'a digit'],
    ['ok', 'text'],
    ['🇳', 'half a flag'],
  ])('refuses %j (%s)', (value) => {
    expect(isOneEmoji(value)).toBe(false);
  });

  it('refuses any text without a pictograph, and any two emoji in a row', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme-ascii', maxLength: 20 }), (text) => {
        expect(isOneEmoji(text)).toBe(false);
      }),
    );
    fc.assert(
      fc.property(fc.constantFrom('👍', '❤️', '🇳🇱', '1️⃣'), fc.constantFrom('😀', '👍🏽'), (a, b) => {
        expect(isOneEmoji(a + b)).toBe(false);
      }),
    );
  });
});
