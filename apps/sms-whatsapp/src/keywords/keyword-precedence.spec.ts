import { keywordKey } from './keyword-text';
import { fitsOneSegment } from './reply-length';
import { allRulesInOrder, matchKeyword, rulesInOrder } from './keyword-precedence';
import type { KeywordRuleRow } from './keyword-rule-view';
import { replyTextOf, workspaceView } from './keyword-rule-view';

const row = (overrides: Partial<KeywordRuleRow>): KeywordRuleRow => ({
  id: `skw_${Math.random().toString(36).slice(2).padEnd(26, '0').slice(0, 26)}`,
  workspace_id: 'ws_1',
  operation: 'stop',
  country: 'US',
  language: null,
  number: null,
  keywords: [],
  reply: null,
  reply_disabled_at: null,
  created_at: '2026-11-20T00:00:00Z',
  updated_at: '2026-11-20T00:00:00Z',
  ...overrides,
});

const US_NUMBER = '+12025550123';
const NL_NUMBER = '+31201234567';

describe(rulesInOrder.name, () => {
  it('puts number rules first, then the arrival country (workspace before default), then the sender country, then worldwide', () => {
    const rules = [
      row({ operation: 'custom', country: null, keywords: ['PROMO'], reply: 'worldwide' }),
      row({ operation: 'help', country: 'NL', reply: 'NL help of ours' }),
      row({ operation: 'custom', number: NL_NUMBER, country: 'NL', keywords: ['HOURS'] }),
    ].map(workspaceView);
    const ordered = rulesInOrder(
      { number: NL_NUMBER, arrivalCountry: 'NL', senderCountry: 'US' },
      rules,
    );
    const summary = ordered.map((r) => `${r.scope}:${r.operation}:${r.number ?? r.country ?? '*'}`);
    expect(summary.slice(0, 3)).toEqual([
      `workspace:custom:${NL_NUMBER}`,
      'workspace:help:NL',
      'system:stop:NL',
    ]);
    expect(summary.indexOf('system:stop:US')).toBeGreaterThan(summary.indexOf('system:help:NL'));
    expect(summary.at(-1)).toBe('workspace:custom:*');
  });

  it("uses the workspace's rule over the default for its country, keeping the default keywords", () => {
    const ours = workspaceView(row({ operation: 'stop', keywords: ['BASTA'], reply: 'Bye.' }));
    const ordered = rulesInOrder({ number: US_NUMBER, arrivalCountry: 'US' }, [ours]);
    expect(matchKeyword('stop', ordered)?.rule.id).toBe(ours.id);
    expect(matchKeyword('basta!', ordered)?.rule.id).toBe(ours.id);
    expect(replyTextOf(ours)).toBe('Bye.');
  });

  it("confines a short code's rule to the country it names (the digits may be held in two)", () => {
    const gb = workspaceView(
      row({ operation: 'custom', number: '77077', country: 'GB', keywords: ['HOURS'] }),
    );
    const inGb = rulesInOrder({ number: '77077', arrivalCountry: 'GB' }, [gb]);
    expect(matchKeyword('HOURS', inGb)?.rule.id).toBe(gb.id);
    const inNl = rulesInOrder({ number: '77077', arrivalCountry: 'NL' }, [gb]);
    expect(matchKeyword('HOURS', inNl)).toBeUndefined();
  });

  it("answers in the arrival country's words before the sender's", () => {
    const ordered = rulesInOrder(
      { number: NL_NUMBER, arrivalCountry: 'NL', senderCountry: 'DE' },
      [],
    );
    expect(matchKeyword('STOP', ordered)?.rule.country).toBe('NL');
    expect(matchKeyword('abmelden', ordered)?.rule.country).toBe('DE');
    expect(matchKeyword('hulp', ordered)?.rule).toMatchObject({ country: 'NL', operation: 'help' });
  });

  it('recognises nothing in a country without default coverage but custom rules', () => {
    const custom = workspaceView(
      row({ operation: 'custom', country: 'FR', keywords: ['HORAIRES'], reply: '9-17h' }),
    );
    const ordered = rulesInOrder(
      { number: '+33612345678', arrivalCountry: 'FR', senderCountry: 'FR' },
      [custom],
    );
    expect(matchKeyword('STOP', ordered)).toBeUndefined();
    expect(matchKeyword('horaires', ordered)?.rule.id).toBe(custom.id);
  });

  it('reads "STOP please" as an opt-out, "cancel my appointment" as nothing', () => {
    const ordered = rulesInOrder({ number: US_NUMBER, arrivalCountry: 'US' }, []);
    expect(matchKeyword('STOP please', ordered)?.rule.operation).toBe('stop');
    expect(matchKeyword('Cancel my appointment', ordered)).toBeUndefined();
    expect(matchKeyword('cancel', ordered)?.rule.operation).toBe('stop');
  });

  it('sends no reply from a self-managed rule, the default reply from a rule without one', () => {
    const selfManaged = workspaceView(row({ reply_disabled_at: '2026-11-21T00:00:00Z' }));
    expect(replyTextOf(selfManaged)).toBeNull();
    expect(replyTextOf(workspaceView(row({})))).toMatch(/unsubscribed/);
    const help = workspaceView(row({ operation: 'help', reply: 'Acme support: 555-0100.' }));
    expect(replyTextOf(help)).toBe(
      'Acme support: 555-0100. Msg&data rates may apply. Reply STOP to opt out.',
    );
  });
});

describe(allRulesInOrder.name, () => {
  it('lists number rules, then countries alphabetically with the workspace first, then worldwide', () => {
    const ours = workspaceView(row({ operation: 'help', country: 'GB', reply: 'x' }));
    const ids = allRulesInOrder([ours]).map((r) => `${r.scope}:${r.country}`);
    expect(ids.indexOf('workspace:GB')).toBeLessThan(ids.indexOf('system:GB'));
    expect(ids.indexOf('system:CA')).toBeLessThan(ids.indexOf('system:DE'));
    expect(
      new Set(ids.filter((id) => id.startsWith('system')).map((id) => id.split(':')[1])),
    ).toEqual(new Set(['US', 'CA', 'GB', 'NL', 'DE']));
  });
});

describe('the shipped defaults', () => {
  it('reply in one segment each, suffix included, and bind no keyword twice in a country', () => {
    const views = allRulesInOrder([]);
    for (const view of views)
      expect({ id: view.id, fits: fitsOneSegment(replyTextOf(view)!) }).toEqual({
        id: view.id,
        fits: true,
      });
    const byCountry = new Map<string, string[]>();
    for (const view of views)
      byCountry.set(view.country!, [
        ...(byCountry.get(view.country!) ?? []),
        ...view.effectiveKeywords,
      ]);
    for (const [country, words] of byCountry)
      expect({ country, dupes: words.filter((w, i) => words.indexOf(w) !== i) }).toEqual({
        country,
        dupes: [],
      });
    for (const view of views)
      for (const word of view.effectiveKeywords) expect(keywordKey(word)).toBe(word);
  });
});
