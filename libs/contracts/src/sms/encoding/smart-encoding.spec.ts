import { applySmartEncoding } from './smart-encoding';

describe(applySmartEncoding.name, () => {
  it('replaces quotes, dashes, ellipses, unicode spaces and fullwidth forms with GSM-7', () => {
    expect(applySmartEncoding('\u201cIt\u2019s \u2014 done\u2026\u201d')).toBe('"It\'s - done..."');
    expect(applySmartEncoding('10\u00a0000\u2009km \u2013 \u00abok\u00bb\u200b')).toBe(
      '10 000 km - "ok"',
    );
    expect(applySmartEncoding('\uff28\uff49\uff01\u3000\uff08\uff11\uff09')).toBe('Hi! (1)');
    expect(applySmartEncoding('tab\there `tick`')).toBe("tab here 'tick'");
  });

  it('is all-or-nothing: a character left outside GSM-7 keeps the whole text as given', () => {
    expect(applySmartEncoding('\u201cSee you\u201d 😀')).toBe('\u201cSee you\u201d 😀');
    expect(applySmartEncoding('\u2018\u0633\u0644\u0627\u0645\u2019')).toBe(
      '\u2018\u0633\u0644\u0627\u0645\u2019',
    );
    expect(applySmartEncoding('plain GSM {text}')).toBe('plain GSM {text}');
  });
});
