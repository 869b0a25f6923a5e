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
    // The second-to-last character carries six ciphertext bits: change it to another letter.
    const replaced = sealed.at(-2) === 'A' ? 'B' : 'A';
    const tampered = `${sealed.slice(0, -2)}${replaced}${sealed.slice(-1)}`;
    expect(() => box.open(tampered)).toThrow();
    expect(() => new SealedBox('another configuration key!!').open(sealed)).toThrow();
  });
});
