import { findUnstorableText, isStorableText } from './storable-text';

describe('storable text', () => {
  it('accepts ordinary text, emoji (paired surrogates) and an empty string', () => {
    expect(isStorableText('hello')).toBe(true);
    expect(isStorableText('déjà vu 👋')).toBe(true);
    expect(isStorableText('')).toBe(true);
  });

  it('refuses NUL and unpaired surrogates, high or low, anywhere in the string', () => {
    for (const bad of ['\u0000', 'a\u0000b', '\ud800', 'x\ud800y', '\udc00', 'a\udc00', '\ud83d']) {
      expect(isStorableText(bad)).toBe(false);
    }
  });

  it('names the first unstorable field by its dotted path, keys included', () => {
    expect(findUnstorableText({ name: 'ok', to: [{ email: 'a' }, { email: '\u0000' }] })).toBe(
      'to[1].email',
    );
    expect(findUnstorableText({ data: { 'bad\ud800': 1 } })).toBe('data.bad\ud800');
    expect(findUnstorableText({ tags: ['fine'], n: 3, b: null })).toBeUndefined();
    expect(findUnstorableText('\u0000')).toBe('body');
  });

  it('walks a body nested deeper than the call stack, naming what it finds with a cut path', () => {
    let deep: unknown = 'ok';
    for (let i = 0; i < 200_000; i++) deep = [deep];
    expect(findUnstorableText({ a: '\u0061', x: deep })).toBeUndefined();
    let bad: unknown = '\u0000';
    for (let i = 0; i < 200_000; i++) bad = { k: bad };
    const path = findUnstorableText(bad) ?? '';
    expect(path.startsWith('k.k.k')).toBe(true);
    expect(path.length).toBeLessThanOrEqual(201);
  });
});
