import {
  apiKeyPrefix,
  hashPassword,
  issueSecret,
  parseSecret,
  passwordMatches,
  regionOfApiKey,
  secretMatches,
} from './secrets';

describe('secrets', () => {
  it('issues an API key the official SDK reads the region from', () => {
    const { secret } = issueSecret(apiKeyPrefix('eu1'));
    const [prefix, region, token] = secret.split('_');
    expect([prefix, region]).toEqual(['bk', 'eu1']);
    expect(token.length).toBeGreaterThan(40);
    expect(regionOfApiKey(secret)).toBe('eu1');
  });

  it('finds the lookup part and verifies the stored hash of a secret', () => {
    const issued = issueSecret('ak_');
    expect(parseSecret('ak_', issued.secret)).toEqual({ lookup: issued.lookup });
    expect(secretMatches(issued.secret, issued.hash)).toBe(true);
    expect(secretMatches(`${issued.secret}x`, issued.hash)).toBe(false);
  });

  it('rejects a secret whose checksum does not match (a typo)', () => {
    const { secret } = issueSecret('ak_');
    const typo = secret.slice(0, 10) + (secret[10] === 'a' ? 'b' : 'a') + secret.slice(11);
    expect(parseSecret('ak_', typo)).toBeUndefined();
    expect(parseSecret('ak_', 'ak_short')).toBeUndefined();
  });

  it('stores passwords salted and verifies them', async () => {
    const stored = await hashPassword('correct horse');
    expect(stored).not.toContain('correct horse');
    await expect(passwordMatches('correct horse', stored)).resolves.toBe(true);
    await expect(passwordMatches('wrong', stored)).resolves.toBe(false);
  });
});
