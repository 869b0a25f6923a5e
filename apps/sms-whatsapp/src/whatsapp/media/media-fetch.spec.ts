import { createHash } from 'node:crypto';
import { matchesDeclaredSha256, mediaRetryInMs, MEDIA_FETCH_ATTEMPTS } from './media-fetch';

describe('media fetch rules', () => {
  const bytes = Buffer.from('a picture');
  const digest = createHash('sha256').update(bytes).digest();

  it("matches Meta's SHA-256 in hex (any case) or base64, and passes when Meta declared none", () => {
    expect(matchesDeclaredSha256(bytes, [digest.toString('hex')])).toBe(true);
    expect(matchesDeclaredSha256(bytes, [digest.toString('hex').toUpperCase()])).toBe(true);
    expect(matchesDeclaredSha256(bytes, [digest.toString('base64'), null])).toBe(true);
    expect(matchesDeclaredSha256(bytes, [undefined, ''])).toBe(true);
  });

  it('refuses bytes whose digest differs from any declaration', () => {
    const other = createHash('sha256').update('another').digest('hex');
    expect(matchesDeclaredSha256(bytes, [digest.toString('hex'), other])).toBe(false);
  });

  it('backs off from 5 s, doubling, capped at 10 minutes', () => {
    expect(mediaRetryInMs(1)).toBe(5_000);
    expect(mediaRetryInMs(2)).toBe(10_000);
    expect(mediaRetryInMs(MEDIA_FETCH_ATTEMPTS)).toBe(600_000);
  });
});
