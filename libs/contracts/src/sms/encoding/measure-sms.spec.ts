import { SMS_MAX_SEGMENTS, measureSms } from './measure-sms';

const persian = 'سلام دنیا';

describe(measureSms.name, () => {
  it('fits 160 septets in one GSM segment and 153 per part beyond', () => {
    expect(measureSms('a'.repeat(160))).toEqual({
      encoding: 'GSM_7BIT',
      count: 1,
      characters: 160,
      text: 'a'.repeat(160),
    });
    expect(measureSms('a'.repeat(161)).count).toBe(2);
    expect(measureSms('a'.repeat(306)).count).toBe(2);
    expect(measureSms('a'.repeat(307)).count).toBe(3);
  });

  it('costs two septets for each extension character and never splits one', () => {
    expect(measureSms('€'.repeat(80))).toMatchObject({
      encoding: 'GSM_7BIT',
      count: 1,
      characters: 80,
    });
    expect(measureSms('€'.repeat(81)).count).toBe(2);
    // 306 septets, but the escape pair at septets 153-154 moves whole: 152 + 153 + 1.
    expect(measureSms(`${'a'.repeat(152)}€${'a'.repeat(152)}`).count).toBe(3);
  });

  it('fits 70 UTF-16 units in one UCS-2 segment and 67 per part, an emoji costing two', () => {
    expect(measureSms('ب'.repeat(70))).toMatchObject({
      encoding: 'UCS2',
      count: 1,
      characters: 70,
    });
    expect(measureSms('ب'.repeat(71)).count).toBe(2);
    expect(measureSms('😀'.repeat(35))).toMatchObject({
      encoding: 'UCS2',
      count: 1,
      characters: 35,
    });
    expect(measureSms('😀'.repeat(36)).count).toBe(2);
    // 134 units, but a surrogate pair never straddles a part: 33 + 33 + 1 emoji.
    expect(measureSms('😀'.repeat(67)).count).toBe(3);
    expect(measureSms(`${persian} 👋🏽`)).toMatchObject({
      encoding: 'UCS2',
      count: 1,
      characters: 12,
    });
  });

  it('answers counts above the cap of 12 segments for the caller to refuse', () => {
    expect(SMS_MAX_SEGMENTS).toBe(12);
    expect(measureSms('a'.repeat(1836)).count).toBe(12);
    expect(measureSms('a'.repeat(1837)).count).toBe(13);
    expect(measureSms('ب'.repeat(804)).count).toBe(12);
    expect(measureSms('ب'.repeat(805)).count).toBe(13);
    expect(measureSms('x'.repeat(100_000)).count).toBe(654);
  });

  it('measures the smart-encoded body when smart encoding applies, the original otherwise', () => {
    const curly = '\u201cWait\u2026\u201d';
    expect(measureSms(curly)).toEqual({ encoding: 'UCS2', count: 1, characters: 7, text: curly });
    expect(measureSms(curly, { smartEncoding: true })).toEqual({
      encoding: 'GSM_7BIT',
      count: 1,
      characters: 9,
      text: '"Wait..."',
    });
    expect(measureSms(`${curly} 😀`, { smartEncoding: true }).text).toBe(`${curly} 😀`);
  });

  it('replaces lone surrogates by U+FFFD in the body as sent, and counts an empty body as one segment', () => {
    expect(measureSms('a\ud800b\ude00')).toEqual({
      encoding: 'UCS2',
      count: 1,
      characters: 4,
      text: 'a\ufffdb\ufffd',
    });
    expect(measureSms('')).toEqual({ encoding: 'GSM_7BIT', count: 1, characters: 0, text: '' });
  });
});
