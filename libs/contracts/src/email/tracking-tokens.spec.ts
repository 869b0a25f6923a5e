import fc from 'fast-check';
import { TrackingTokens } from './tracking-tokens';
import type { TrackingClaim } from './tracking-tokens';

describe(TrackingTokens.name, () => {
  const tokens = new TrackingTokens('test-encryption-key-0123456789');
  const click: TrackingClaim = {
    kind: 'click',
    messageId: 'em_01jd0000000000000000000000',
    recipientId: 'rcp_01jd0000000000000000000000',
    url: 'https://acme.example/offers?a=1&b=%C3%A9#top',
    linkName: 'Spring offers',
  };

  it('answers the claim a token it signed carries, for every kind', () => {
    const open = { kind: 'open', messageId: 'em_1', recipientId: 'rcp_1' } as const;
    const unsubscribe = { kind: 'unsubscribe', messageId: 'em_1', recipientId: 'rcp_1' } as const;
    expect(tokens.verify(tokens.sign(open))).toEqual(open);
    expect(tokens.verify(tokens.sign(unsubscribe))).toEqual(unsubscribe);
    expect(tokens.verify(tokens.sign(click))).toEqual(click);
    expect(tokens.verify(tokens.sign({ ...click, linkName: null }))).toEqual({
      ...click,
      linkName: null,
    });
  });

  it('makes tokens that fit a URL path segment as they are', () => {
    expect(tokens.sign(click)).toMatch(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{22}$/);
  });

  it('refuses a token signed with another key', () => {
    const other = new TrackingTokens('another-encryption-key-0123456789');
    expect(tokens.verify(other.sign(click))).toBeUndefined();
  });

  it('refuses a token with any character changed, added or removed', () => {
    const token = tokens.sign(click);
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.';
    fc.assert(
      fc.property(
        fc.nat({ max: token.length - 1 }),
        fc.constantFrom(...alphabet.split('')),
        fc.constantFrom('replace', 'insert', 'delete'),
        (at, char, edit) => {
          const changed =
            edit === 'replace'
              ? token.slice(0, at) + char + token.slice(at + 1)
              : edit === 'insert'
                ? token.slice(0, at) + char + token.slice(at)
                : token.slice(0, at) + token.slice(at + 1);
          fc.pre(changed !== token);
          expect(tokens.verify(changed)).toBeUndefined();
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('refuses a payload re-signed nowhere: another destination under the old MAC', () => {
    const token = tokens.sign(click);
    const mac = token.slice(token.indexOf('.'));
    const forged = tokens.sign({ ...click, url: 'https://evil.example/' });
    expect(tokens.verify(forged.slice(0, forged.indexOf('.')) + mac)).toBeUndefined();
  });

  it('refuses arbitrary strings', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 300 }), (value) => {
        expect(tokens.verify(value)).toBeUndefined();
      }),
    );
  });
});
