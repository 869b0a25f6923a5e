import { SealedBox } from './sealed-box';

describe(SealedBox.name, () => {
  const box = new SealedBox('a configuration key of enough length');

  it('round-trips a value and never stores it in the clear', () => {
    const sealed = box.seal('rak_secret_value');
    expect(sealed).not.toContain('rak_secret_value');
    expect(box.open(sealed)).toBe('rak_secret_value');
    expect(box.seal('same')).not.toBe(box.seal('same'));
  });

  it('refuses a tampered value or another key', () => {
    const sealed = box.seal('value');
    const tampered = `${sealed.slice(0, -2)}${sealed.endsWith('A') ? 'B' : 'A'}${sealed.slice(-1)}`;
    expect(() => box.open(tampered)).toThrow();
    expect(() => new SealedBox('another configuration key!!').open(sealed)).toThrow();
  });
});
