/**
 * A tiny, typed environment schema. Each app declares its variables once; `loadConfig` reads
 * them, applies defaults and stops at the first bad value with one line naming the variable.
 * The declarations are data, so deployment files can be checked against them in tests.
 */
export interface EnvVar<T> {
  readonly kind: 'string' | 'int' | 'boolean' | 'list' | 'enum' | 'url';
  readonly required: boolean;
  readonly default?: T;
  readonly description: string;
  readonly secret?: boolean;
  parse(raw: string): T;
}

export class ConfigError extends Error {
  constructor(
    readonly variable: string,
    problem: string,
  ) {
    super(`Invalid configuration: ${variable} ${problem}`);
    this.name = 'ConfigError';
  }
}

type Options<T> = { default?: T; description: string; secret?: boolean };

function variable<T>(
  kind: EnvVar<T>['kind'],
  options: Options<T>,
  parse: (raw: string) => T,
): EnvVar<T> {
  return {
    kind,
    required: options.default === undefined,
    default: options.default,
    description: options.description,
    secret: options.secret,
    parse,
  };
}

export const env = {
  string: (options: Options<string> & { minLength?: number }): EnvVar<string> =>
    variable('string', options, (raw) => {
      if (raw.length < (options.minLength ?? 1))
        throw new Error(`must be at least ${options.minLength ?? 1} characters`);
      return raw;
    }),
  optionalString: (options: Omit<Options<string>, 'default'>): EnvVar<string | undefined> => ({
    ...variable<string | undefined>('string', options, (raw) => raw || undefined),
    required: false,
  }),
  int: (options: Options<number> & { min?: number; max?: number }): EnvVar<number> =>
    variable('int', options, (raw) => {
      const value = Number(raw);
      const min = options.min ?? Number.MIN_SAFE_INTEGER;
      const max = options.max ?? Number.MAX_SAFE_INTEGER;
      if (!/^-?\d+$/.test(raw.trim()) || value < min || value > max) {
        throw new Error(`must be an integer from ${min} to ${max}`);
      }
      return value;
    }),
  boolean: (options: Options<boolean>): EnvVar<boolean> =>
    variable('boolean', options, (raw) => {
      if (['true', '1', 'yes'].includes(raw.toLowerCase())) return true;
      if (['false', '0', 'no'].includes(raw.toLowerCase())) return false;
      throw new Error('must be true or false');
    }),
  enum: <T extends string>(values: readonly T[], options: Options<T>): EnvVar<T> =>
    variable('enum', options, (raw) => {
      if (!values.includes(raw as T)) throw new Error(`must be one of ${values.join(', ')}`);
      return raw as T;
    }),
  list: (options: Options<string[]> & { pattern?: RegExp }): EnvVar<string[]> =>
    variable('list', options, (raw) => {
      const items = raw
        .split(',')
        .map((item) => item.trim())
        .filter(Boolean);
      if (items.length === 0) throw new Error('must list at least one value');
      const bad = options.pattern ? items.find((item) => !options.pattern?.test(item)) : undefined;
      if (bad !== undefined) throw new Error(`has an invalid entry "${bad}"`);
      return items;
    }),
  url: (options: Options<string> & { protocols: string[] }): EnvVar<string> =>
    variable('url', options, (raw) => {
      for (const part of raw.split(',')) {
        let url: URL;
        try {
          url = new URL(part);
        } catch {
          throw new Error('must be a URL');
        }
        if (!options.protocols.includes(url.protocol.replace(/:$/, ''))) {
          throw new Error(`must use ${options.protocols.join(' or ')}`);
        }
      }
      return raw;
    }),
};

export type EnvSchema = Record<string, EnvVar<unknown>>;
export type ConfigOf<S extends EnvSchema> = {
  [K in keyof S]: S[K] extends EnvVar<infer T> ? T : never;
};

export function loadConfig<S extends EnvSchema>(
  schema: S,
  source: NodeJS.ProcessEnv = process.env,
): ConfigOf<S> {
  const config: Record<string, unknown> = {};
  for (const [name, spec] of Object.entries(schema)) {
    const raw = source[name];
    if (raw === undefined || raw === '') {
      if (spec.required) throw new ConfigError(name, 'is required');
      config[name] = spec.default;
      continue;
    }
    try {
      config[name] = spec.parse(raw);
    } catch (err) {
      throw new ConfigError(
        name,
        `${(err as Error).message} (got ${spec.secret ? 'a hidden value' : JSON.stringify(raw)})`,
      );
    }
  }
  return config as ConfigOf<S>;
}

/** The variables every process reads, whatever service it runs. */
export const commonEnv = {
  TRANSPORT: env.enum(['in-process', 'nats'] as const, {
    default: 'in-process',
    description: 'in-process (embedded default) or nats (distributed)',
  }),
  NATS_URL: env.url({
    default: 'nats://127.0.0.1:4222',
    protocols: ['nats', 'tls'],
    description: 'NATS server URL(s), comma-separated',
  }),
  TRANSPORT_TIMEOUT_MS: env.int({
    default: 5000,
    min: 100,
    max: 120000,
    description: 'time-out of one request between services',
  }),
  LOG_LEVEL: env.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const, {
    default: 'info',
    description: 'pino log level',
  }),
};
