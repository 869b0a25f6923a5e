import fc from 'fast-check';
import { checkedSender, senderCovers } from './sender-rules';

describe('checkedSender', () => {
  it('accepts 1 to 11 letters, digits and inner spaces with a letter among them', () => {
    for (const sender of ['A', 'Acme', 'Acme Alerts', 'ACME2FA', 'x1234567890'])
      expect(checkedSender(sender, undefined)).toEqual({ sender, categories: null });
  });

  it('refuses digits only, 12 characters, other characters and outer spaces', () => {
    for (const sender of ['123456', 'Acme Alerts!', 'TwelveChars1', 'Äcme', ' Acme', 'Acme ', ''])
      expect({ sender, result: checkedSender(sender, undefined) }).toEqual({
        sender,
        result: [expect.objectContaining({ param: 'sender' })],
      });
  });

  it('keeps categories in their canonical order and refuses unknown or none', () => {
    expect(checkedSender('Acme', ['service', 'transactional'])).toEqual({
      sender: 'Acme',
      categories: ['transactional', 'service'],
    });
    expect(checkedSender('Acme', ['promo'])).toEqual([
      expect.objectContaining({ param: 'categories' }),
    ]);
    expect(checkedSender('Acme', [])).toEqual([expect.objectContaining({ param: 'categories' })]);
  });

  it('accepts exactly the senders of the GSM rule on generated input', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 14 }), (sender) => {
        const valid =
          /^[A-Za-z0-9 ]{1,11}$/.test(sender) &&
          /[A-Za-z]/.test(sender) &&
          sender.trim() === sender;
        expect(Array.isArray(checkedSender(sender, undefined))).toBe(!valid);
      }),
      { seed: 18, numRuns: 500 },
    );
  });
});

describe('senderCovers', () => {
  it('lets a marketing registration cover all four categories, the others the three but marketing', () => {
    const all = ['transactional', 'marketing', 'authentication', 'service'];
    expect(all.filter((c) => senderCovers(['marketing'], c))).toEqual(all);
    expect(all.filter((c) => senderCovers(null, c))).toEqual(all);
    for (const registered of ['transactional', 'authentication', 'service'])
      expect(all.filter((c) => senderCovers([registered], c))).toEqual([
        'transactional',
        'authentication',
        'service',
      ]);
  });
});
