import { loadConfig, parsePublicUrl } from '@switchboard/platform';
import { gatewayEnv } from './gateway.config';

describe(parsePublicUrl.name, () => {
  it('normalises the case of scheme and host and drops the trailing slash', () => {
    expect(parsePublicUrl('HTTPS://Switchboard.example.com/')).toBe(
      'https://switchboard.example.com',
    );
    expect(parsePublicUrl('http://127.0.0.1:8080')).toBe('http://127.0.0.1:8080');
  });

  it('keeps a path prefix', () => {
    expect(parsePublicUrl('https://example.com/switchboard/')).toBe(
      'https://example.com/switchboard',
    );
  });

  it('stops the gateway with one line naming PUBLIC_URL for a value that is not an http(s) URL', () => {
    for (const value of ['switchboard.example.com', 'ftp://example.com', 'https://a.com/?x=1'])
      expect(() =>
        loadConfig({ PUBLIC_URL: gatewayEnv.PUBLIC_URL }, { PUBLIC_URL: value }),
      ).toThrow(
        `Invalid configuration: PUBLIC_URL must be an http:// or https:// URL without query, fragment or credentials (got ${JSON.stringify(value)})`,
      );
  });
});
