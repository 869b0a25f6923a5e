import { ConfigError, loadConfig } from '@switchboard/platform';
import { emailEnv, returnPathTarget } from './email.config';

describe('returnPathTarget', () => {
  const load = (vars: Record<string, string>) =>
    loadConfig(emailEnv, { ENCRYPTION_KEY: 'test-encryption-key-0123456789', ...vars });

  it('is EMAIL_RETURN_PATH_TARGET, lowercased without a trailing dot', () => {
    const config = load({
      EMAIL_RETURN_PATH_TARGET: 'Bounces.Switchboard.Example.',
      EMAIL_HELO_NAME: 'mta.example.net',
    });
    expect(returnPathTarget(config)).toBe('bounces.switchboard.example');
  });

  it('defaults to the EHLO name', () => {
    expect(returnPathTarget(load({ EMAIL_HELO_NAME: 'MTA.example.net' }))).toBe('mta.example.net');
  });

  it('refuses an address as EMAIL_RETURN_PATH_TARGET, naming the variable', () => {
    expect(() => load({ EMAIL_RETURN_PATH_TARGET: '203.0.113.5' })).toThrow(
      'Invalid configuration: EMAIL_RETURN_PATH_TARGET must be a host name, not an IP address',
    );
    expect(() => load({ EMAIL_RETURN_PATH_TARGET: 'https://x.example' })).toThrow(ConfigError);
  });

  it('asks for EMAIL_RETURN_PATH_TARGET when the EHLO name is an address', () => {
    for (const helo of ['203.0.113.5', '[2001:db8::5]']) {
      const config = load({ EMAIL_HELO_NAME: helo });
      expect(() => returnPathTarget(config)).toThrow(
        /^Invalid configuration: EMAIL_RETURN_PATH_TARGET is required when EMAIL_HELO_NAME/,
      );
    }
    expect(
      returnPathTarget(
        load({ EMAIL_HELO_NAME: '203.0.113.5', EMAIL_RETURN_PATH_TARGET: 'rp.x.io' }),
      ),
    ).toBe('rp.x.io');
  });
});
