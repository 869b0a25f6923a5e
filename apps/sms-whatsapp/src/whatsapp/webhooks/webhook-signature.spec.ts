import { createHmac } from 'node:crypto';
import fc from 'fast-check';
import { payloadText, signBody, signatureOf } from './webhook-signature';

const SECRET = 'app-secret';

describe(signatureOf.name, () => {
  const body = Buffer.from('{"object":"whatsapp_business_account","entry":[]}');

  it("accepts sha256= and the hex HMAC-SHA256 of the raw body, Meta's header", () => {
    const hex = createHmac('sha256', SECRET).update(body).digest('hex');
    expect(signatureOf(SECRET, body, `sha256=${hex}`)).toBe('valid');
    expect(signatureOf(SECRET, body, `sha256=${hex.toUpperCase()}`)).toBe('valid');
    expect(signBody(SECRET, body)).toBe(`sha256=${hex}`);
  });

  it('tells a missing signature from a wrong one', () => {
    expect(signatureOf(SECRET, body, undefined)).toBe('missing');
    expect(signatureOf(SECRET, body, '')).toBe('missing');
    expect(signatureOf(SECRET, body, signBody('other', body))).toBe('invalid');
    expect(
      signatureOf(SECRET, Buffer.concat([body, Buffer.from(' ')]), signBody(SECRET, body)),
    ).toBe('invalid');
    expect(signatureOf(SECRET, body, signBody(SECRET, body).replace('sha256=', 'sha1='))).toBe(
      'invalid',
    );
    expect(signatureOf(SECRET, body, `${signBody(SECRET, body)}00`)).toBe('invalid');
  });

  it('never throws, whatever header arrives', () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ maxLength: 200 }),
        fc.string({ maxLength: 100 }),
        (bytes, header) => {
          expect(['missing', 'invalid']).toContain(signatureOf(SECRET, Buffer.from(bytes), header));
        },
      ),
    );
  });
});

describe(payloadText.name, () => {
  it('answers the text of a UTF-8 JSON object, and nothing else', () => {
    expect(payloadText(Buffer.from(' {"a":"é"}'))).toBe(' {"a":"é"}');
    expect(payloadText(Buffer.from('[1]'))).toBeUndefined();
    expect(payloadText(Buffer.from('{"a":'))).toBeUndefined();
    expect(payloadText(Buffer.from('null'))).toBeUndefined();
    expect(payloadText(Buffer.from([0x7b, 0xff, 0x7d]))).toBeUndefined();
    expect(payloadText(Buffer.alloc(0))).toBeUndefined();
  });
});
