import { isPrivateAddress, urlProblem } from './url-policy';

const resolver = (answers: Record<string, string[]>) => ({
  resolve4: (host: string) =>
    answers[host]
      ? Promise.resolve(answers[host].filter((a) => a.includes('.')))
      : Promise.reject(Object.assign(new Error('no'), { code: 'ENOTFOUND' })),
  resolve6: (host: string) =>
    answers[host]
      ? Promise.resolve(answers[host].filter((a) => a.includes(':')))
      : Promise.reject(Object.assign(new Error('no'), { code: 'ENOTFOUND' })),
});

describe('webhook URL policy', () => {
  it('knows private, loopback, link-local and mapped addresses from public ones', () => {
    for (const address of [
      '127.0.0.1',
      '10.1.2.3',
      '172.20.0.1',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '::1',
      'fe80::1',
      'fd00::1',
      '::ffff:127.0.0.1',
      '0.0.0.0',
      // Documentation ranges, and the IPv6 forms that embed an IPv4 address.
      '192.0.2.1',
      '198.51.100.7',
      '203.0.113.9',
      '::7f00:1',
      '::ffff:0:7f00:1',
      '2002:7f00:1::1',
      '2001:0:4136:e378::1',
      'fec0::1',
      '100::1',
      '64:ff9b:1::1',
    ])
      expect([address, isPrivateAddress(address)]).toEqual([address, true]);
    for (const address of ['93.184.216.34', '8.8.8.8', '2606:4700:4700::1111'])
      expect([address, isPrivateAddress(address)]).toEqual([address, false]);
  });

  it('accepts a public https URL and refuses http, private literals and private names', async () => {
    const dns = resolver({
      'hooks.example.com': ['93.184.216.34'],
      'internal.example.com': ['10.0.0.5'],
      'mixed.example.com': ['93.184.216.34', '::1'],
    });
    expect(await urlProblem('https://hooks.example.com/in', false, dns)).toBeUndefined();
    expect(await urlProblem('http://hooks.example.com/in', false, dns)).toBe('must use https');
    expect(await urlProblem('https://127.0.0.1/in', false, dns)).toBe(
      'must reach a public address',
    );
    expect(await urlProblem('https://[::1]/in', false, dns)).toBe('must reach a public address');
    expect(await urlProblem('https://localhost/in', false, dns)).toBe(
      'must reach a public address',
    );
    expect(await urlProblem('https://internal.example.com/in', false, dns)).toBe(
      'must reach a public address',
    );
    expect(await urlProblem('https://mixed.example.com/in', false, dns)).toBe(
      'must reach a public address',
    );
    expect(await urlProblem('https://nowhere.example.com/in', false, dns)).toBe(
      'its host does not resolve',
    );
    expect(await urlProblem('https://user:pw@hooks.example.com/in', false, dns)).toBe(
      'must not carry credentials',
    );
    // What the parser would change: the URL stored must be the one called.
    for (const raw of [
      'https://hooks.example.com/a\r\nX-Injected: 1',
      'https://hooks.example.com/a b',
    ])
      expect(await urlProblem(raw, false, dns)).toBe(
        'must not contain spaces or control characters',
      );
    expect(await urlProblem('https://hooks.example.com:0/in', false, dns)).toBe(
      'must not use port 0',
    );
  });

  it('accepts http and private addresses when private URLs are allowed, without looking anything up', async () => {
    const dns = resolver({});
    expect(await urlProblem('http://127.0.0.1:8080/in', true, dns)).toBeUndefined();
    expect(await urlProblem('ftp://127.0.0.1/in', true, dns)).toBe('must use https');
  });
});
