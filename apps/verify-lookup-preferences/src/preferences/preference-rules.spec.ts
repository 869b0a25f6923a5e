import { transitionIdAfter } from './preference-ledger';
import { PreferenceErrors } from '@switchboard/contracts';
import { judge } from './preference-rules';
import type { PreferenceRow, PreferenceState } from './preferences.repository';

const T0 = new Date('2026-11-27T10:00:00.000Z');
const at = (minutes: number) => new Date(T0.getTime() + minutes * 60_000);

const row = (overrides: Partial<PreferenceRow> = {}): PreferenceRow => ({
  id: 'prf_1',
  workspace_id: 'ws_1',
  channel: 'sms',
  handle: '+31655550001',
  sender_scope: '+31612340000',
  topic_id: null,
  status: 'revoked',
  coverage: 'all',
  origin: 'keyword',
  source: 'sms:sms_1',
  consented_at: null,
  effective_at: T0,
  contact_id: null,
  deleted_at: null,
  created_at: T0,
  updated_at: T0,
  ...overrides,
});

const state = (overrides: Partial<PreferenceState> = {}): PreferenceState => ({
  status: 'revoked',
  coverage: 'all',
  origin: 'keyword',
  source: 'sms:sms_2',
  consentedAt: null,
  effectiveAt: at(5),
  contactId: null,
  ...overrides,
});

describe(judge.name, () => {
  it('inserts on a key with no row, and replaces a deleted one unless older than the delete', () => {
    expect(judge(undefined, state())).toEqual({ kind: 'insert' });
    const deleted = row({ deleted_at: T0, origin: 'api_key' });
    expect(judge(deleted, state())).toEqual({ kind: 'replace' });
    expect(judge(deleted, state({ effectiveAt: at(-1) }))).toEqual({ kind: 'older' });
  });

  it("takes a person's STOP over their own earlier STOP as a restatement when later, whatever its source, and a repeat otherwise", () => {
    expect(judge(row(), state())).toEqual({ kind: 'restate' });
    expect(judge(row(), state({ origin: 'unsubscribe_link' }))).toEqual({ kind: 'restate' });
    expect(judge(row(), state({ effectiveAt: at(-5) }))).toEqual({ kind: 'repeat' });
    expect(judge(row(), state({ effectiveAt: T0 }))).toEqual({ kind: 'repeat' });
    // Restated at 5, the opt-out a grant must postdate is the later one.
    const grant = { status: 'granted' as const, origin: 'api_key', source: null };
    const restated = row({ effective_at: at(5) });
    expect(judge(restated, state({ ...grant, consentedAt: at(3), effectiveAt: at(3) }))).toEqual({
      kind: 'older',
    });
    expect(judge(restated, state({ ...grant, consentedAt: at(6), effectiveAt: at(6) }))).toEqual({
      kind: 'replace',
    });
  });

  it('lets the person change the coverage of their own opt-out, in causal order', () => {
    expect(judge(row(), state({ coverage: 'non_transactional' }))).toEqual({ kind: 'replace' });
    expect(judge(row(), state({ coverage: 'non_transactional', effectiveAt: at(-1) }))).toEqual({
      kind: 'older',
    });
  });

  it("refuses a revoke on the person's behalf over their own opt-out", () => {
    expect(judge(row(), state({ origin: 'api_key', coverage: 'non_transactional' }))).toEqual({
      kind: 'forbidden',
      code: PreferenceErrors.PreferenceOwnOptOut,
    });
  });

  it("takes the same opt-out said on the person's behalf as a repeat, changing nothing", () => {
    expect(judge(row(), state({ origin: 'api_key' }))).toEqual({ kind: 'repeat' });
  });

  it('needs consent evidence for any grant over an opt-out, later than the opt-out', () => {
    const bare = state({ status: 'granted', origin: 'api_key' });
    expect(judge(row(), bare)).toEqual({
      kind: 'forbidden',
      code: PreferenceErrors.PreferenceOwnOptOut,
    });
    expect(judge(row({ origin: 'api_key' }), bare)).toEqual({
      kind: 'forbidden',
      code: PreferenceErrors.PreferenceConsentRequired,
    });
    const start = state({ status: 'granted', consentedAt: at(5), effectiveAt: at(5) });
    expect(judge(row(), start)).toEqual({ kind: 'replace' });
    const sameMoment = state({ status: 'granted', consentedAt: T0, effectiveAt: T0 });
    expect(judge(row(), sameMoment)).toEqual({ kind: 'older' });
  });

  it("refuses a person's STOP older than their START, and applies a newer one", () => {
    const granted = row({ status: 'granted', consented_at: at(5), effective_at: at(5) });
    expect(judge(granted, state({ effectiveAt: at(1) }))).toEqual({ kind: 'older' });
    expect(judge(granted, state({ effectiveAt: at(9) }))).toEqual({ kind: 'replace' });
  });

  it('answers an identical statement through the API as a repeat', () => {
    const current = row({ origin: 'api_key', source: null, coverage: 'non_transactional' });
    const same = state({ origin: 'api_key', source: null, coverage: 'non_transactional' });
    expect(judge(current, { ...same, effectiveAt: at(60) })).toEqual({ kind: 'repeat' });
  });
});

describe(transitionIdAfter.name, () => {
  it('keeps a fresh id already after the key, and otherwise gives one after its latest', () => {
    expect(transitionIdAfter('prt_02', 'prt_01')).toBe('prt_02');
    expect(transitionIdAfter('prt_02', undefined)).toBe('prt_02');
    const after = transitionIdAfter('prt_01a', 'prt_01z');
    expect(after > 'prt_01z').toBe(true);
    expect(transitionIdAfter('prt_01z', 'prt_01z') > 'prt_01z').toBe(true);
  });
});
