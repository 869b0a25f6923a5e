import fc from 'fast-check';
import { keywordKey, saysAtEdge } from './keyword-text';

/** Any UTF-16 unit, lone surrogates included (fast-check's strings never make those). */
const anyUnit = fc.integer({ min: 0, max: 0xffff }).map((code) => String.fromCharCode(code));
const punctuation = fc.constantFrom(' ', '!', '.', '?', '"', '*', '\n', '\t', ' ', '😀', '(', ')');

describe(keywordKey.name, () => {
  it('reads the spellings people send as the keyword', () => {
    for (const text of ['stop', ' Stop! ', 'STOP.', '"stop"', '**STOP**', 'Stop\n', 'ＳＴＯＰ'])
      expect(keywordKey(text)).toBe('STOP');
    expect(keywordKey('Arrêt')).toBe('ARRET');
    expect(keywordKey('kündigen')).toBe('KUNDIGEN');
    expect(keywordKey('opt   out')).toBe('OPT OUT');
    expect(keywordKey('opt-out!')).toBe('OPT-OUT');
    expect(keywordKey('...')).toBe('');
  });

  it('is idempotent, never throws and keeps no surrounding separator, whatever the text', () => {
    fc.assert(
      fc.property(fc.string({ unit: anyUnit, maxLength: 60 }), (text) => {
        const key = keywordKey(text);
        expect(keywordKey(key)).toBe(key);
        expect(key).not.toMatch(/^\s|\s$|\s\s/);
        expect(key).toBe(key.toUpperCase());
      }),
    );
  });

  it('reads a keyword wrapped in any punctuation, spaces or emoji as that keyword', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('stop', 'Unsubscribe', 'HELP', 'afmelden', 'Stopp'),
        fc.array(punctuation, { maxLength: 5 }),
        fc.array(punctuation, { maxLength: 5 }),
        (word, before, after) => {
          expect(keywordKey(`${before.join('')}${word}${after.join('')}`)).toBe(word.toUpperCase());
        },
      ),
    );
  });
});

describe(saysAtEdge.name, () => {
  const words = ['STOP', 'UNSUBSCRIBE', 'OPT OUT'];

  it('hears an opt-out word leading or closing a short message', () => {
    expect(saysAtEdge(keywordKey('STOP please'), words)).toBe('STOP');
    expect(saysAtEdge(keywordKey('please unsubscribe me'), words)).toBeUndefined();
    expect(saysAtEdge(keywordKey('please unsubscribe'), words)).toBe('UNSUBSCRIBE');
    expect(saysAtEdge(keywordKey('Opt out now!'), words)).toBe('OPT OUT');
    expect(saysAtEdge(keywordKey('Stop texting me!!'), words)).toBe('STOP');
  });

  it('leaves longer messages and words inside them to the workspace', () => {
    expect(saysAtEdge(keywordKey('I will not stop you'), words)).toBeUndefined();
    expect(saysAtEdge(keywordKey('stop by the shop later this week'), words)).toBeUndefined();
    expect(saysAtEdge(keywordKey('stopover'), words)).toBeUndefined();
  });
});
