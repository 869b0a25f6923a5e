import { AppError } from '@switchboard/platform';
import {
  isOwnStatement,
  isRepeat,
  normalizeHandle,
  normalizeSenderScope,
  statementOf,
} from './preference-statement';
import type { PreferenceRow } from './preferences.repository';

const NOW = new Date('2026-11-27T01:00:00.000Z');

describe(statementOf.name, () => {
  it('dates a grant by its consent and anything else by now, coverage non_transactional by default', () => {
    const grant = statementOf(
      {
        channel: 'email',
        handle: ' Ada@Example.com ',
        status: 'granted',
        consented_at: '2026-11-26T00:00:00Z',
      },
      'api_key',
      NOW,
    );
    expect(grant.handle).toBe('ada@example.com');
    expect(grant.state.effectiveAt.toISOString()).toBe('2026-11-26T00:00:00.000Z');
    expect(grant.state.coverage).toBe('non_transactional');
    const revoke = statementOf(
      { channel: 'sms', handle: '+31612345678', status: 'revoked' },
      'user',
      NOW,
    );
    expect(revoke.state.effectiveAt).toBe(NOW);
    expect(revoke.state.consentedAt).toBeNull();
  });

  it.each([
    [{ channel: 'sms', handle: '0612345678', status: 'revoked' as const }, ['handle']],
    [
      { channel: 'email', handle: 'a@b.co', status: 'revoked' as const, sender_scope: 'x' },
      ['sender_scope'],
    ],
    [
      {
        channel: 'email',
        handle: 'a@b.co',
        status: 'granted' as const,
        consented_at: '2027-01-01T00:00:00Z',
      },
      ['consented_at'],
    ],
    [
      {
        channel: 'email',
        handle: 'a@b.co',
        status: 'revoked' as const,
        consented_at: '2026-01-01T00:00:00Z',
      },
      ['consented_at'],
    ],
  ])('refuses %j on %j', (input, params) => {
    try {
      statementOf(input, 'api_key', NOW);
      throw new Error('accepted');
    } catch (error) {
      expect(error).toBeInstanceOf(AppError);
      expect(((error as AppError).details ?? []).map((detail) => detail.param)).toEqual(params);
    }
  });
});

describe(normalizeHandle.name, () => {
  it('keeps E.164 on SMS and WhatsApp, refuses control characters on any channel', () => {
    expect(normalizeHandle('whatsapp', '+31612345678')).toBe('+31612345678');
    expect(normalizeHandle('sms', '+031612345678')).toBeUndefined();
    expect(normalizeHandle('telegram', 'user\u0000')).toBeUndefined();
  });
});

describe(isRepeat.name, () => {
  const row = {
    status: 'revoked',
    coverage: 'all',
    origin: 'api_key',
    source: null,
    consented_at: null,
  } as unknown as PreferenceRow;
  it('is a repeat only when status, coverage, origin, source and consent all match', () => {
    const state = {
      status: 'revoked',
      coverage: 'all',
      origin: 'api_key',
      source: null,
      consentedAt: null,
      effectiveAt: NOW,
      contactId: null,
    } as const;
    expect(isRepeat(row, state)).toBe(true);
    expect(isRepeat(row, { ...state, origin: 'user' })).toBe(false);
    expect(isRepeat(row, { ...state, coverage: 'non_transactional' })).toBe(false);
    expect(isOwnStatement('keyword')).toBe(true);
    expect(isOwnStatement('import')).toBe(false);
  });
});

describe(normalizeHandle.name, () => {
  it('keys a number in the form the channels send to, so a revoke meets the send', () => {
    expect(normalizeHandle('sms', '+310612345678')).toBe('+31612345678');
    expect(normalizeHandle('whatsapp', ' +31612345678 ')).toBe('+31612345678');
    expect(normalizeHandle('sms', '0612345678')).toBeUndefined();
  });

  it('keys an email address as the email channel sends to it: lowercased, its domain in ASCII', () => {
    expect(normalizeHandle('email', ' Anna@Example.COM ')).toBe('anna@example.com');
    expect(normalizeHandle('email', 'anna@bücher.de')).toBe('anna@xn--bcher-kva.de');
    expect(normalizeHandle('email', 'anna@xn--bcher-kva.de')).toBe('anna@xn--bcher-kva.de');
    // Nothing the channel would ever send to.
    expect(normalizeHandle('email', '"anna smith"@example.com')).toBeUndefined();
    expect(normalizeHandle('email', 'anna@localhost')).toBeUndefined();
  });
});

describe(normalizeSenderScope.name, () => {
  it('spells an SMS sender scope as the SMS service spells its senders', () => {
    expect(normalizeSenderScope('sms', '31612340000')).toBe('+31612340000');
    expect(normalizeSenderScope('sms', 'Acme')).toBe('Acme');
    expect(normalizeSenderScope('whatsapp', '102290129340398')).toBe('102290129340398');
    expect(normalizeSenderScope('whatsapp', ' 102290129340398 ')).toBe('102290129340398');
    expect(normalizeSenderScope('sms', null)).toBeNull();
  });
});
