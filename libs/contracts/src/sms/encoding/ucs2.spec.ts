import { decodeUcs2, encodeUcs2, replaceLoneSurrogates } from './ucs2';

describe('UCS-2', () => {
  it('is UTF-16BE with an astral emoji as a surrogate pair', () => {
    expect(encodeUcs2('A😀')).toEqual(Buffer.from([0x00, 0x41, 0xd8, 0x3d, 0xde, 0x00]));
    expect(decodeUcs2(Buffer.from([0x06, 0x28, 0xd8, 0x3d, 0xde, 0x00]))).toBe('ب😀');
  });

  it('keeps lone surrogates so split pairs join again, and marks a trailing odd octet', () => {
    const halves = [encodeUcs2('a\ud83d'), encodeUcs2('\ude00b')].map(decodeUcs2);
    expect(halves.join('')).toBe('a😀b');
    expect(decodeUcs2(Buffer.from([0x00, 0x41, 0x00]))).toBe('A\ufffd');
    expect(decodeUcs2(encodeUcs2('x'.repeat(10_000)))).toBe('x'.repeat(10_000));
  });

  it('replaces lone surrogates, and only those, by U+FFFD', () => {
    expect(replaceLoneSurrogates('a\ud83d😀\ude00\udc00\ud800')).toBe(
      'a\ufffd😀\ufffd\ufffd\ufffd',
    );
    expect(replaceLoneSurrogates('Hi 👋🏽 سلام')).toBe('Hi 👋🏽 سلام');
  });
});
