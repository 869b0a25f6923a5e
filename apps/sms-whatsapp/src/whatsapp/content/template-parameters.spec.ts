import { WhatsAppContentErrors as E } from '@switchboard/contracts';
import type { WhatsAppTemplateComponentSend } from '@switchboard/contracts';
import { AppError } from '@switchboard/platform';
import { checkTemplateParameters, checkTemplateRecipient } from './template-parameters';
import type { MetaTemplateComponent } from './template-slots';

const text = (value: string, name?: string) => ({
  type: 'text',
  text: value,
  ...(name && { name }),
});

const orderTemplate: MetaTemplateComponent[] = [
  { type: 'HEADER', format: 'IMAGE', example: { header_handle: ['h'] } },
  { type: 'BODY', text: 'Hi {{1}}, order {{2}} ships {{2}} today' },
  { type: 'FOOTER', text: 'Reply STOP' },
  {
    type: 'BUTTONS',
    buttons: [
      { type: 'QUICK_REPLY', text: 'Thanks' },
      { type: 'URL', text: 'Track', url: 'https://track.example.org/{{1}}' },
      { type: 'URL', text: 'Shop', url: 'https://shop.example.org' },
      { type: 'COPY_CODE', example: 'SAVE10' },
    ],
  },
];

function mismatch(meta: MetaTemplateComponent[], send: unknown[]): AppError {
  try {
    checkTemplateParameters(meta, send as WhatsAppTemplateComponentSend[]);
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error('expected a mismatch');
}
const params = (error: AppError) => (error.details ?? []).map((detail) => detail.param);

describe(checkTemplateParameters.name, () => {
  const full = [
    { type: 'header', parameters: [{ type: 'image', url: 'https://cdn.example.org/a.png' }] },
    { type: 'body', parameters: [text('Ada'), text('42')] },
    { type: 'button', parameters: [text('42')] },
    { type: 'button', parameters: [text('SAVE10')] },
  ];

  it('accepts values for every slot: the media header, the body, the URL and coupon buttons', () => {
    expect(() =>
      checkTemplateParameters(orderTemplate, full as WhatsAppTemplateComponentSend[]),
    ).not.toThrow();
  });

  it('accepts no components for a template without placeholders', () => {
    expect(() => checkTemplateParameters([{ type: 'BODY', text: 'Hello' }])).not.toThrow();
  });

  it('refuses a wrong count, a wrong header kind, a missing part and a button with no slot', () => {
    const error = mismatch(orderTemplate, [
      { type: 'header', parameters: [{ type: 'video', url: 'https://cdn.example.org/a.mp4' }] },
      { type: 'body', parameters: [text('Ada')] },
      { type: 'button', parameters: [text('42')] },
      { type: 'button', parameters: [text('a'), text('b')] },
      { type: 'button', parameters: [text('x')] },
    ]);
    expect(error.code).toBe(E.WhatsAppTemplateParameterMismatch);
    expect(params(error)).toEqual([
      'template.components[0].parameters[0].type',
      'template.components[1].parameters',
      'template.components[3].parameters',
      'template.components[4]',
    ]);
    expect(params(mismatch(orderTemplate, full.slice(1)))).toEqual(['template.components[3]']);
  });

  it('refuses a part the template has no slot for', () => {
    expect(
      params(
        mismatch([{ type: 'BODY', text: 'Hello' }], [{ type: 'body', parameters: [text('x')] }]),
      ),
    ).toEqual(['template.components[0]']);
  });

  it('takes named parameters by name, in any order, each declared name once', () => {
    const named = [{ type: 'BODY', text: 'Hi {{first_name}}, your {{item}} is ready' }];
    expect(() =>
      checkTemplateParameters(named, [
        { type: 'body', parameters: [text('lamp', 'item'), text('Ada', 'first_name')] },
      ] as WhatsAppTemplateComponentSend[]),
    ).not.toThrow();
    expect(
      params(
        mismatch(named, [
          { type: 'body', parameters: [text('Ada', 'first_name'), text('x', 'colour')] },
        ]),
      ),
    ).toEqual(['template.components[0].parameters[1].name', 'template.components[0].parameters']);
    expect(
      params(mismatch(named, [{ type: 'body', parameters: [text('Ada'), text('lamp', 'item')] }])),
    ).toEqual(['template.components[0].parameters[0].name', 'template.components[0].parameters']);
    expect(
      params(
        mismatch(
          [{ type: 'BODY', text: 'Hi {{1}}' }],
          [{ type: 'body', parameters: [text('Ada', 'first_name')] }],
        ),
      ),
    ).toEqual(['template.components[0].parameters[0].name']);
  });

  it('fills a carousel card by card, as many cards as the template was approved with', () => {
    const card = {
      components: [
        { type: 'HEADER', format: 'IMAGE' },
        { type: 'BODY', text: 'Only {{1}}' },
        { type: 'BUTTONS', buttons: [{ type: 'QUICK_REPLY', text: 'Buy' }] },
      ],
    };
    const meta = [
      { type: 'BODY', text: 'Our picks' },
      { type: 'CAROUSEL', cards: [card, card] },
    ];
    const sendCard = {
      components: [
        { type: 'header', parameters: [{ type: 'image', url: 'https://cdn.example.org/a.png' }] },
        { type: 'body', parameters: [text('$5')] },
      ],
    };
    expect(() =>
      checkTemplateParameters(meta, [
        { type: 'carousel', cards: [sendCard, sendCard] },
      ] as WhatsAppTemplateComponentSend[]),
    ).not.toThrow();
    expect(params(mismatch(meta, [{ type: 'carousel', cards: [sendCard] }]))).toEqual([
      'template.components[0].cards',
    ]);
    expect(
      params(
        mismatch(meta, [
          { type: 'carousel', cards: [sendCard, { components: [sendCard.components[0]] }] },
        ]),
      ),
    ).toEqual(['template.components[0].cards[1].components[1]']);
    expect(params(mismatch(meta, []))).toEqual(['template.components[0]']);
  });

  it('fills an authentication template: the code in the body and the one-time-passcode button', () => {
    const meta = [
      { type: 'BODY', text: '*{{1}}* is your verification code.' },
      { type: 'BUTTONS', buttons: [{ type: 'OTP', otp_type: 'COPY_CODE', text: 'Copy code' }] },
    ];
    expect(() =>
      checkTemplateParameters(meta, [
        { type: 'body', parameters: [text('123456')] },
        { type: 'button', parameters: [text('123456')] },
      ] as WhatsAppTemplateComponentSend[]),
    ).not.toThrow();
    // Meta's limit for a passcode or a coupon code on a button: 15 characters.
    expect(
      params(
        mismatch(meta, [
          { type: 'body', parameters: [text('1'.repeat(20))] },
          { type: 'button', parameters: [text('1'.repeat(20))] },
        ]),
      ),
    ).toEqual(['template.components[1].parameters[0].text']);
  });
});

describe(checkTemplateRecipient.name, () => {
  it('refuses an authentication template to a business-scoped user ID only', () => {
    expect(() =>
      checkTemplateRecipient('AUTHENTICATION', { kind: 'bsuid', bsuid: 'US.1' }),
    ).toThrow(expect.objectContaining({ code: E.WhatsAppRecipientNotSupportedForTemplate }));
    expect(() =>
      checkTemplateRecipient('authentication', { kind: 'phone_number', phoneNumber: '+3161' }),
    ).not.toThrow();
    expect(() =>
      checkTemplateRecipient('marketing', { kind: 'bsuid', bsuid: 'US.1' }),
    ).not.toThrow();
  });
});
