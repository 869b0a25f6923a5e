import fc from 'fast-check';
import { decodeSmsPart } from './decode-sms-part';
import { encodeSms } from './encode-sms';
import { measureSms } from './measure-sms';

const GSM_BASIC =
  '@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !"#¤%&\'()*+,-./0123456789:;<=>?' +
  '¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà';
const GSM_EXTENSION = '^{}\\[]~|€\f';
const SMART = '\u2018\u2019\u201c\u201d\u2013\u2014\u2026\u00a0\u2009\uff21\t`';

const codeUnits = fc.string({
  unit: fc.integer({ min: 0, max: 0xffff }).map((unit) => String.fromCharCode(unit)),
  maxLength: 900,
});
const gsmOnly = fc.string({
  unit: fc.constantFrom(...GSM_BASIC, ...GSM_EXTENSION),
  maxLength: 2000,
});
const extensionHeavy = fc.string({ unit: fc.constantFrom(...GSM_EXTENSION, 'a'), maxLength: 1000 });
const nearlyGsm = fc.string({ unit: fc.constantFrom(...GSM_BASIC, ...SMART), maxLength: 600 });
const codePoints = fc.string({ unit: 'binary', maxLength: 500 });
const anyBody = fc.oneof(codeUnits, gsmOnly, extensionHeavy, nearlyGsm, codePoints);

/** Octets a part takes on the air: GSM septets packed after the UDH's septet-aligned length. */
function airOctets(dataCoding: 0 | 8, part: Buffer, hasHeader: boolean): number {
  if (dataCoding === 8) return part.length;
  const headerSeptets = hasHeader ? Math.ceil((6 * 8) / 7) : 0;
  return Math.ceil((((hasHeader ? part.length - 6 : part.length) + headerSeptets) * 7) / 8);
}

describe(encodeSms.name, () => {
  it('sends a body that fits one segment as one part without a header', () => {
    expect(encodeSms('Hi €', { reference: 7 })).toEqual({
      segments: { encoding: 'GSM_7BIT', count: 1, characters: 4, text: 'Hi €' },
      dataCoding: 0,
      parts: [Buffer.from([0x48, 0x69, 0x20, 0x1b, 0x65])],
    });
    expect(encodeSms('😀', { reference: 7 }).parts).toEqual([
      Buffer.from([0xd8, 0x3d, 0xde, 0x00]),
    ]);
  });

  it('starts each part of a longer body with the 8-bit-reference concatenation header', () => {
    const { parts, dataCoding } = encodeSms('a'.repeat(161), { reference: 0xab });
    expect(dataCoding).toBe(0);
    expect(parts.map((part) => [...part.subarray(0, 6)])).toEqual([
      [0x05, 0x00, 0x03, 0xab, 2, 1],
      [0x05, 0x00, 0x03, 0xab, 2, 2],
    ]);
    expect(parts.map((part) => part.length)).toEqual([6 + 153, 6 + 8]);
  });

  it('keeps an escape pair and a surrogate pair whole at a part boundary', () => {
    const gsm = encodeSms(`${'a'.repeat(152)}€b`.repeat(2), { reference: 1 });
    expect(gsm.parts[0].subarray(6)).toEqual(Buffer.from('a'.repeat(152)));
    expect(gsm.parts[1].subarray(6, 8)).toEqual(Buffer.from([0x1b, 0x65]));
    // 80 units: the 34th emoji would take units 67-68, so the first part holds 66 units.
    const ucs2 = encodeSms('😀'.repeat(40), { reference: 1 });
    expect(ucs2.parts.map((part) => part.length - 6)).toEqual([132, 28]);
    expect(ucs2.segments.count).toBe(2);
  });

  it('refuses more than 12 segments and a reference outside one octet', () => {
    expect(encodeSms('a'.repeat(1836), { reference: 0 }).parts).toHaveLength(12);
    expect(() => encodeSms('a'.repeat(1837), { reference: 0 })).toThrow('13 segments');
    expect(() => encodeSms('hi', { reference: 256 })).toThrow('0-255');
    expect(() => encodeSms('hi', { reference: 1.5 })).toThrow('0-255');
  });

  it('round-trips Arabic, Persian and emoji through the parts', () => {
    const text = `${'مرحبا بالعالم، سلام دنیا! این یک پیام آزمایشی است. '.repeat(4)}👋🏽🇳🇱👨‍👩‍👧`;
    const { parts, dataCoding, segments } = encodeSms(text, { reference: 9 });
    expect(segments).toMatchObject({ encoding: 'UCS2', text });
    expect(parts.map((part) => decodeSmsPart(dataCoding, part, 0x40).text).join('')).toBe(text);
  });

  it('sends any body as count parts that fit 140 octets and reassemble to the body as sent', () => {
    fc.assert(
      fc.property(
        anyBody,
        fc.boolean(),
        fc.integer({ min: 0, max: 255 }),
        (text, smart, reference) => {
          const measure = measureSms(text, { smartEncoding: smart });
          if (measure.count > 12) {
            expect(() => encodeSms(text, { smartEncoding: smart, reference })).toThrow(Error);
            return;
          }
          const { segments, dataCoding, parts } = encodeSms(text, {
            smartEncoding: smart,
            reference,
          });
          expect(segments).toEqual(measure);
          expect(parts).toHaveLength(measure.count);
          const multipart = parts.length > 1;
          const decoded = parts.map((part) =>
            decodeSmsPart(dataCoding, part, multipart ? 0x40 : 0),
          );
          expect(decoded.map((part) => part.text).join('')).toBe(measure.text);
          decoded.forEach((part, index) => {
            expect(part.concat).toEqual(
              multipart ? { reference, total: parts.length, sequence: index + 1 } : undefined,
            );
          });
          for (const part of parts)
            expect(airOctets(dataCoding, part, multipart)).toBeLessThanOrEqual(140);
          expect(measure.characters).toBe([...measure.text].length);
        },
      ),
      { numRuns: 400 },
    );
  });
});
