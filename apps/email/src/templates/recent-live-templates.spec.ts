import { guardOf, isStaleTemplatePin, RecentLiveTemplates } from './recent-live-templates';
import type { LiveTemplateRow } from './published-templates.repository';

const row = (id: string, fields: Partial<LiveTemplateRow> = {}): LiveTemplateRow => ({
  id,
  slug: `slug-${id}`,
  category: 'transactional',
  on_missing_language: 'fallback',
  language_source_required: false,
  version_id: `emv_${id}`,
  version_number: 1,
  default_language: 'en',
  languages: ['en'],
  ...fields,
});

describe(RecentLiveTemplates.name, () => {
  it('keeps published rows per workspace and ref, and forgets a ref a later read did not find live', () => {
    const recent = new RecentLiveTemplates();
    recent.remember(
      'ws_1',
      ['a', 'b'],
      new Map([
        ['a', row('a')],
        ['b', row('b')],
      ]),
    );
    expect(recent.get('ws_1', 'a')?.id).toBe('a');
    expect(recent.get('ws_2', 'a')).toBeUndefined();
    recent.remember(
      'ws_1',
      ['a', 'b'],
      new Map([['a', row('a', { version_id: null, default_language: null, languages: null })]]),
    );
    expect(recent.get('ws_1', 'a')).toBeUndefined();
    expect(recent.get('ws_1', 'b')).toBeUndefined();
  });

  it('holds at most 2,000 rows, dropping the oldest', () => {
    const recent = new RecentLiveTemplates();
    for (let i = 0; i <= 2_000; i++)
      recent.remember('ws_1', [`t${i}`], new Map([[`t${i}`, row(`t${i}`)]]));
    expect(recent.get('ws_1', 't0')).toBeUndefined();
    expect(recent.get('ws_1', 't1')?.id).toBe('t1');
    expect(recent.get('ws_1', 't2000')?.id).toBe('t2000');
  });

  it('guards what a pin relied on, and knows the guard’s refusal by its SQLSTATE', () => {
    expect(guardOf('ws_1', row('a'))).toEqual({
      workspace_id: 'ws_1',
      id: 'a',
      slug: 'slug-a',
      version_id: 'emv_a',
      category: 'transactional',
      on_missing_language: 'fallback',
      language_source_required: false,
    });
    expect(isStaleTemplatePin({ code: 'SBT01' })).toBe(true);
    expect(isStaleTemplatePin({ code: '23505' })).toBe(false);
    expect(isStaleTemplatePin(null)).toBe(false);
  });
});
