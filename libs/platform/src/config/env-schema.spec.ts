import { ConfigError, env, loadConfig } from './env-schema';

describe('loadConfig', () => {
  const schema = {
    PORT: env.int({ default: 8080, min: 0, max: 65535, description: 'port' }),
    REGIONS: env.list({ default: ['us1'], pattern: /^[a-z]{2}\d+$/, description: 'regions' }),
    TOKEN: env.string({ description: 'token', secret: true }),
  };

  it('applies defaults and parses values into a typed object', () => {
    expect(loadConfig(schema, { TOKEN: 'x', REGIONS: 'us1, eu1' })).toEqual({
      PORT: 8080,
      REGIONS: ['us1', 'eu1'],
      TOKEN: 'x',
    });
  });

  it('stops at a bad value with one line naming the variable', () => {
    expect(() => loadConfig(schema, { TOKEN: 'x', PORT: 'eighty' })).toThrow(
      new ConfigError('PORT', 'must be an integer from 0 to 65535 (got "eighty")'),
    );
  });

  it('names a missing required variable and never echoes a secret', () => {
    expect(() => loadConfig(schema, {})).toThrow('Invalid configuration: TOKEN is required');
    const secretSchema = { TOKEN: env.int({ description: 'n', secret: true }) };
    expect(() => loadConfig(secretSchema, { TOKEN: 'hunter2' })).toThrow(/got a hidden value/);
    expect(() => loadConfig(secretSchema, { TOKEN: 'hunter2' })).not.toThrow(/hunter2/);
  });
});
