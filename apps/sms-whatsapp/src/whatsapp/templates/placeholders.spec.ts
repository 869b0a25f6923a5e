import fc from 'fast-check';
import { placeholderKeys, placeholdersOf } from './placeholders';

describe(placeholdersOf.name, () => {
  it('counts a positional body and text header and the buttons that take a value', () => {
    const slots = placeholdersOf([
      { type: 'HEADER', format: 'TEXT', text: 'Order {{1}}' },
      { type: 'BODY', text: 'Hi {{1}}, your order {{2}} ships {{3}}. Thanks {{1}}!' },
      { type: 'FOOTER', text: 'Reply STOP' },
      {
        type: 'BUTTONS',
        buttons: [
          { type: 'QUICK_REPLY', text: 'Yes' },
          { type: 'URL', text: 'Track', url: 'https://example.com/t/{{1}}' },
          { type: 'URL', text: 'Home', url: 'https://example.com' },
          { type: 'COPY_CODE', example: 'SAVE10' },
        ],
      },
    ]);
    expect(slots).toEqual({
      parameterFormat: 'positional',
      header: { format: 'text', parameters: ['1'] },
      body: ['1', '2', '3'],
      buttons: [
        { index: 1, type: 'url', parameters: 1 },
        { index: 3, type: 'copy_code', parameters: 1 },
      ],
      cards: [],
    });
  });

  it('names the parameters of a named template and a media header takes one value', () => {
    const slots = placeholdersOf([
      { type: 'HEADER', format: 'IMAGE', example: { header_handle: ['https://x/y.png'] } },
      { type: 'BODY', text: 'Hello {{first_name}}, {{ order_id }} is ready' },
    ]);
    expect(slots.parameterFormat).toBe('named');
    expect(slots.header).toEqual({ format: 'image', parameters: ['image'] });
    expect(slots.body).toEqual(['first_name', 'order_id']);
    expect(slots.buttons).toEqual([]);
  });

  it('an authentication template needs the code in its body and its passcode button', () => {
    const slots = placeholdersOf([
      { type: 'BODY', text: '{{1}} is your verification code.', add_security_recommendation: true },
      { type: 'BUTTONS', buttons: [{ type: 'OTP', otp_type: 'COPY_CODE', text: 'Copy code' }] },
    ]);
    expect(slots.body).toEqual(['1']);
    expect(slots.buttons).toEqual([{ index: 0, type: 'otp', parameters: 1 }]);
  });

  it('reads each carousel card in order', () => {
    const card = (n: number) => ({
      components: [
        { type: 'HEADER', format: 'IMAGE' },
        { type: 'BODY', text: `Card ${n} {{1}}` },
        { type: 'BUTTONS', buttons: [{ type: 'URL', url: 'https://e.com/{{1}}' }] },
      ],
    });
    const slots = placeholdersOf([
      { type: 'BODY', text: 'See these' },
      { type: 'CAROUSEL', cards: [card(1), card(2)] },
    ]);
    expect(slots.body).toEqual([]);
    expect(slots.cards).toHaveLength(2);
    expect(slots.cards[1]).toEqual({
      header: { format: 'image', parameters: ['image'] },
      body: ['1'],
      buttons: [{ index: 0, type: 'url', parameters: 1 }],
    });
  });

  it('never throws on whatever Meta sends, and keys are distinct', () => {
    fc.assert(
      fc.property(fc.array(fc.dictionary(fc.string(), fc.jsonValue())), (components) => {
        const slots = placeholdersOf(components);
        expect(new Set(slots.body).size).toBe(slots.body.length);
      }),
    );
    fc.assert(
      fc.property(fc.string(), (text) => {
        const keys = placeholderKeys(text);
        expect(new Set(keys).size).toBe(keys.length);
      }),
    );
  });
});
