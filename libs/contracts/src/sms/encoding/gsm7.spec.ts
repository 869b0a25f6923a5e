import { decodeGsm7, encodeGsm7, gsm7CharSeptets, gsm7Septets, isGsm7 } from './gsm7';

describe('GSM 03.38', () => {
  it('knows the basic table and the ten two-septet extension characters, and nothing else', () => {
    expect(
      isGsm7('@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !"#¤%&\'()*+,-./09:;<=>?¡AZÄÖÑÜ§¿azäöñüà'),
    ).toBe(true);
    expect([...'^{}\\[]~|€\f'].map(gsm7CharSeptets)).toEqual(Array(10).fill(2));
    for (const outside of ['`', 'ç', 'á', '\u00a0', '\t', '\u2019', '😀', '\u0000', 'ب']) {
      expect(gsm7CharSeptets(outside)).toBeUndefined();
    }
    expect(gsm7Septets('a€[')).toBe(5);
    expect(() => gsm7Septets('é😀')).toThrow('U+1F600');
  });

  it('encodes one septet per octet, extension characters as escape and code', () => {
    expect(encodeGsm7('@A€{')).toEqual(Buffer.from([0x00, 0x41, 0x1b, 0x65, 0x1b, 0x28]));
    expect(encodeGsm7('\f^}\\]~|[')).toEqual(
      Buffer.from([27, 10, 27, 20, 27, 41, 27, 47, 27, 62, 27, 61, 27, 64, 27, 60]),
    );
    expect(() => encodeGsm7('ç')).toThrow('U+00E7');
  });

  it('decodes what it encodes, an unknown escape as the basic character, escape-escape as space', () => {
    const text = '@£$¥ΔΞ¤¡§¿à^{}\\[]~|€\f\r\n';
    expect(decodeGsm7(encodeGsm7(text))).toBe(text);
    expect(decodeGsm7(Buffer.from([0x1b, 0x41, 0x1b, 0x0d]))).toBe('A\r');
    expect(decodeGsm7(Buffer.from([0x1b, 0x1b, 0x41]))).toBe(' A');
    expect(decodeGsm7(Buffer.from([0x41, 0x1b]))).toBe('A ');
    expect(decodeGsm7(Buffer.from([0x41, 0xc1]))).toBe('A\ufffd');
  });
});
