import { storageEnv } from '@switchboard/persistence';
import { dnsServersEnv, env, serviceEnv } from '@switchboard/platform';
import type { ConfigOf } from '@switchboard/platform';

export const verifyLookupPreferencesEnv = {
  ...serviceEnv,
  ...storageEnv,
  DNS_SERVERS: dnsServersEnv("for email lookups' mail hosts"),
  DNS_TIMEOUT_MS: env.int({
    default: 5000,
    min: 100,
    max: 60_000,
    description: 'time-out of one DNS query',
  }),
  VERIFY_CODE_TTL_SECONDS: env.int({
    default: 600,
    min: 1,
    max: 86_400,
    description: 'how long a verification and its passcodes stay valid',
  }),
  VERIFY_MAX_CHECKS: env.int({
    default: 5,
    min: 1,
    max: 20,
    description: 'checks a verification takes before it fails with attempts_exhausted',
  }),
  VERIFY_RESEND_COOLDOWN_SECONDS: env.int({
    default: 30,
    min: 0,
    max: 3600,
    description: 'a repeated create within this time answers the state without sending again',
  }),
  VERIFY_SENDS_PER_HOUR: env.int({
    default: 5,
    min: 1,
    max: 1000,
    description: 'passcode sends per recipient address in a rolling hour (next-channel excluded)',
  }),
  VERIFY_CODE_LENGTH: env.int({
    default: 6,
    min: 4,
    max: 10,
    description: 'digits of a passcode unless a create asks for another length',
  }),
  VERIFY_SMS_FROM: env.optionalString({
    description:
      "sender of SMS passcodes (a number or sender ID the workspace holds); unset: the workspace's sender for authentication messages",
  }),
  VERIFY_EMAIL_FROM: env.optionalString({
    description: 'sender of email passcodes; unset: verify@<EMAIL_ONBOARDING_DOMAIN>',
  }),
  VERIFY_TEST_RECIPIENTS: env.list({
    default: [],
    pattern: /^(ws_[0-9a-z]+|\*):\S+$/,
    description:
      'test recipients, comma-separated <workspace id>:<E.164 number or email address> (or *:<address> for every workspace): their passcode is VERIFY_TEST_CODE and nothing is sent to them (app review accounts, end-to-end tests)',
  }),
  VERIFY_TEST_CODE: {
    ...env.optionalString({
      description: 'the passcode of VERIFY_TEST_RECIPIENTS (4 to 10 digits; required with them)',
    }),
    parse: (raw: string) => {
      if (!raw) return undefined;
      if (!/^\d{4,10}$/.test(raw)) throw new Error('must be 4 to 10 digits');
      return raw;
    },
  },
  EMAIL_ONBOARDING_DOMAIN: env.string({
    default: 'onboarding.localhost',
    description: "the email service's shared onboarding domain (the default passcode sender's)",
  }),
};
export type VerifyLookupPreferencesConfig = ConfigOf<typeof verifyLookupPreferencesEnv>;

/** The service's configuration, injectable in every feature module. */
export const VERIFY_LOOKUP_PREFERENCES_CONFIG = Symbol('VERIFY_LOOKUP_PREFERENCES_CONFIG');
