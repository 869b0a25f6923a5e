import { derivedId, newId } from './ids';

describe('ids', () => {
  const at = Date.UTC(2026, 2, 10);

  it('newId draws a different id each time, sorted by time', () => {
    expect(newId('ev', at)).not.toBe(newId('ev', at));
    expect(newId('ev', at) < newId('ev', at + 1)).toBe(true);
  });

  it('derivedId gives the same key and time the same id, shaped as newId', () => {
    const id = derivedId('ev', at, 'hit-1');
    expect(id).toBe(derivedId('ev', at, 'hit-1'));
    expect(id).toMatch(/^ev_[0-9a-hjkmnp-tv-z]{26}$/);
    expect(id.slice(0, 13)).toBe(newId('ev', at).slice(0, 13));
    expect(derivedId('ev', at, 'hit-2')).not.toBe(id);
  });
});
