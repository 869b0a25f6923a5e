import fc from 'fast-check';
import { MediaLinks } from './media-links';

describe(MediaLinks.name, () => {
  const now = 1_800_000_000_000;
  const links = new MediaLinks('app-secret', () => now);

  it('accepts a link it signed until it expires', () => {
    const token = links.sign('waf_01abc', now + 1000);
    expect(links.check(token)).toEqual({ valid: true, mediaId: 'waf_01abc' });
    expect(new MediaLinks('app-secret', () => now + 1000).check(token)).toEqual({
      valid: false,
      reason: 'expired',
    });
  });

  it('refuses a link signed with another secret, or with its id or expiry changed', () => {
    const token = links.sign('waf_01abc', now + 1000);
    expect(new MediaLinks('other-secret', () => now).check(token).valid).toBe(false);
    expect(links.check(token.replace('waf_01abc', 'waf_01abd'))).toEqual({
      valid: false,
      reason: 'forged',
    });
    expect(links.check(token.replace(`${now + 1000}`, `${now + 9000}`))).toEqual({
      valid: false,
      reason: 'forged',
    });
  });

  it('calls any token it did not sign forged, never valid', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 200 }), (token) => {
        expect(links.check(token)).toEqual({ valid: false, reason: 'forged' });
      }),
    );
  });
});
