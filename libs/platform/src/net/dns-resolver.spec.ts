import { dnsServersEnv } from './dns-resolver';

describe(dnsServersEnv.name, () => {
  const setting = dnsServersEnv('for the spec');

  it('takes addresses, with a port, IPv6 in brackets with one', () => {
    const value = '127.0.0.1:5300, 10.0.0.2,::1,[2001:db8::1]:53';
    expect(setting.parse(value)).toBe(value);
    expect(setting.parse('')).toBeUndefined();
  });

  it('refuses a host name at boot, naming it, rather than at the first lookup', () => {
    for (const bad of ['dns.internal', 'localhost:53', '127.0.0.1:99999', '[::1]'])
      expect(() => setting.parse(`8.8.8.8,${bad}`)).toThrow(JSON.stringify(bad));
  });
});
