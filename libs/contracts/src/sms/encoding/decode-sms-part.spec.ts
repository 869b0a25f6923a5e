import fc from 'fast-check';
import { concatenationOf, decodeSmsPart } from './decode-sms-part';

describe(decodeSmsPart.name, () => {
  it('decodes GSM unpacked, UCS-2, IA5 and Latin-1 without a header', () => {
    expect(decodeSmsPart(0, Buffer.from([0x48, 0x1b, 0x65, 0x00]), 0)).toEqual({ text: 'H€@' });
    expect(decodeSmsPart(8, Buffer.from([0x06, 0x33, 0xd8, 0x3d, 0xde, 0x00]), 0)).toEqual({
      text: 'س😀',
    });
    expect(decodeSmsPart(1, Buffer.from('Hi!', 'latin1'), 0)).toEqual({ text: 'Hi!' });
    expect(decodeSmsPart(3, Buffer.from('Çà va ½', 'latin1'), 0)).toEqual({ text: 'Çà va ½' });
    expect(decodeSmsPart(0xf1, Buffer.from([0x41]), 0)).toEqual({ text: 'A' });
  });

  it('reads the 8-bit and 16-bit concatenation elements and skips the others', () => {
    const eightBit = Buffer.from([0x05, 0x00, 0x03, 0x2a, 3, 2, 0x41]);
    expect(decodeSmsPart(0, eightBit, 0x40)).toEqual({
      text: 'A',
      concat: { reference: 0x2a, total: 3, sequence: 2 },
    });
    // A national language single shift element (0x24) before a 16-bit reference.
    const sixteenBit = Buffer.from([
      0x09, 0x24, 0x01, 0x0d, 0x08, 0x04, 0x12, 0x34, 2, 1, 0x00, 0x42,
    ]);
    expect(decodeSmsPart(8, sixteenBit, 0x43)).toEqual({
      text: 'B',
      concat: { reference: 0x1234, total: 2, sequence: 1 },
    });
    expect(decodeSmsPart(0, Buffer.from([0x03, 0x24, 0x01, 0x0d, 0x41]), 0x40)).toEqual({
      text: 'A',
    });
  });

  it('reads the concatenation from information elements as the smpp package lists them', () => {
    const elements = [Buffer.from([0x24, 0x01, 0x0d]), Buffer.from([0x00, 0x03, 0x07, 4, 3])];
    expect(concatenationOf(elements)).toEqual({ reference: 7, total: 4, sequence: 3 });
    expect(concatenationOf([Buffer.from([0x08, 0x04, 0x01, 0x00, 2, 2])])).toEqual({
      reference: 0x100,
      total: 2,
      sequence: 2,
    });
    expect(concatenationOf([Buffer.from([0x00, 0x03, 0x07])])).toBeUndefined();
    expect(concatenationOf([])).toBeUndefined();
  });

  it('ignores header-looking octets when esm_class has no UDH indicator', () => {
    expect(decodeSmsPart(1, Buffer.from([0x05, 0x00, 0x03]), 0x04).concat).toBeUndefined();
  });

  it('throws a plain Error on an overrunning header and on an unknown data_coding', () => {
    expect(() => decodeSmsPart(0, Buffer.from([0x05, 0x00, 0x03]), 0x40)).toThrow('overruns');
    expect(() => decodeSmsPart(0, Buffer.from([0x04, 0x00, 0x09, 1, 2, 0x41]), 0x40)).toThrow(
      'overruns',
    );
    expect(() => decodeSmsPart(0, Buffer.alloc(0), 0x40)).toThrow('overruns');
    expect(() => decodeSmsPart(4, Buffer.from([0x41]), 0)).toThrow('data_coding 4');
  });

  it('decodes any octets of a known data_coding, or refuses a malformed header with an Error', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(0, 1, 3, 8, 0xf0, 0xf4),
        fc.uint8Array({ maxLength: 254 }),
        fc.boolean(),
        (dataCoding, octets, withHeader) => {
          const message = Buffer.from(octets);
          try {
            const { text } = decodeSmsPart(dataCoding, message, withHeader ? 0x40 : 0);
            expect(typeof text).toBe('string');
          } catch (error) {
            expect(withHeader).toBe(true);
            expect((error as Error).message).toMatch(/overruns/);
          }
        },
      ),
    );
  });
});
