import type { GraphTemplate } from '../graph/whatsapp-graph';
import { planSync } from './template-sync.plan';
import type { LanguageWrite, SyncedTemplate } from './template-sync.plan';
import type { LanguageRow } from './template-rows';

const NOW = new Date('2026-11-27T00:00:00Z');
const EARLIER = new Date('2026-11-20T00:00:00Z');

const meta = (over: Partial<GraphTemplate> = {}): GraphTemplate => ({
  id: '1001',
  name: 'order_update',
  language: 'en_US',
  status: 'APPROVED',
  category: 'UTILITY',
  components: [{ type: 'BODY', text: 'Order {{1}} shipped' }],
  ...over,
});

function ids() {
  let n = 0;
  return { template: () => `wat_${++n}`, version: () => `wav_${++n}` };
}

/** What the store holds after applying a plan, as the next sync would read it. */
function heldAfter(
  plan: ReturnType<typeof planSync>,
  before: SyncedTemplate[] = [],
): SyncedTemplate[] {
  const templates = new Map(before.map((t) => [t.id, { ...t, languages: [...t.languages] }]));
  for (const t of plan.newTemplates)
    templates.set(t.id, {
      id: t.id,
      slug: t.slug,
      default_language: t.default_language,
      live_version_id: null,
      live_number: null,
      languages: [],
    });
  for (const v of plan.newVersions) {
    const t = templates.get(v.template_id)!;
    t.live_version_id = v.id;
    t.live_number = v.number;
    t.languages = [];
  }
  for (const l of plan.languages) {
    const t = [...templates.values()].find((x) => x.live_version_id === l.version_id)!;
    const asRow: LanguageRow = { ...l, updated_at: NOW };
    t.languages = [...t.languages.filter((x) => x.language !== l.language), asRow];
  }
  for (const u of plan.templates) templates.get(u.id)!.default_language = u.default_language;
  return [...templates.values()];
}

const lang = (plan: ReturnType<typeof planSync>, language: string): LanguageWrite | undefined =>
  plan.languages.find((l) => l.language === language);

describe(planSync.name, () => {
  it('imports one template per name with each language a row of its first version', () => {
    const plan = planSync(
      [],
      [meta(), meta({ id: '1002', language: 'pt_BR', status: 'PENDING' })],
      NOW,
      ids(),
    );
    expect(plan.newTemplates).toEqual([
      {
        id: 'wat_1',
        slug: 'order_update',
        category: 'utility',
        status: 'active',
        default_language: 'en-US',
      },
    ]);
    expect(plan.newVersions).toEqual([{ id: 'wav_2', template_id: 'wat_1', number: 1 }]);
    expect(plan.languages.map((l) => [l.language, l.status, l.revision])).toEqual([
      ['en-US', 'approved', 1],
      ['pt-BR', 'pending', 1],
    ]);
    expect(lang(plan, 'en-US')?.approved_at).toEqual(NOW);
    expect(lang(plan, 'pt-BR')?.approved_at).toBeNull();
    expect(lang(plan, 'en-US')?.content_hash).toMatch(/^sha256:[0-9a-f]{64}$/);
  });

  it('a second sync of the same content writes nothing', () => {
    const first = planSync([], [meta()], EARLIER, ids());
    const again = planSync(heldAfter(first), [meta()], NOW, ids());
    expect(again).toEqual({
      newTemplates: [],
      newVersions: [],
      superseded: [],
      languages: [],
      templates: [],
    });
  });

  it('a content change makes a new live version; the changed language counts a revision, the others keep theirs', () => {
    const first = planSync([], [meta(), meta({ id: '1002', language: 'de' })], EARLIER, ids());
    const held = heldAfter(first);
    const changed = meta({ components: [{ type: 'BODY', text: 'Order {{1}} is on its way' }] });
    const plan = planSync(held, [changed, meta({ id: '1002', language: 'de' })], NOW, ids());
    expect(plan.newVersions).toEqual([{ id: 'wav_1', template_id: 'wat_1', number: 2 }]);
    expect(plan.superseded).toEqual(['wav_2']);
    expect(lang(plan, 'en-US')).toMatchObject({
      revision: 2,
      submitted_at: NOW,
      version_id: 'wav_1',
    });
    expect(lang(plan, 'de')).toMatchObject({
      revision: 1,
      submitted_at: EARLIER,
      approved_at: EARLIER,
    });
    expect(plan.templates).toEqual([
      { id: 'wat_1', live_version_id: 'wav_1', default_language: 'en-US' },
    ]);
  });

  it('a status-only change updates the language in place and keeps where its category moved from', () => {
    const held = heldAfter(planSync([], [meta()], EARLIER, ids()));
    const plan = planSync(
      held,
      [meta({ status: 'PAUSED', category: 'MARKETING', quality_score: { score: 'RED' } })],
      NOW,
      ids(),
    );
    expect(plan.newVersions).toEqual([]);
    expect(plan.languages).toEqual([
      expect.objectContaining({
        version_id: 'wav_2',
        status: 'paused',
        category: 'marketing',
        previous_category: 'utility',
        quality: 'red',
        revision: 1,
        approved_at: EARLIER,
      }),
    ]);
    expect(plan.templates).toEqual([
      { id: 'wat_1', live_version_id: 'wav_2', default_language: 'en-US' },
    ]);
  });

  it('a rejection carries Meta’s reason as its category', () => {
    const plan = planSync(
      [],
      [meta({ status: 'REJECTED', rejected_reason: 'INVALID_FORMAT' })],
      NOW,
      ids(),
    );
    expect(lang(plan, 'en-US')?.rejection).toEqual({
      category: 'invalid_format',
      reason: null,
      recommendation: null,
    });
  });

  it('a name Meta no longer lists has its languages marked deleted in place, never dropped', () => {
    const held = heldAfter(
      planSync([], [meta(), meta({ id: '1002', language: 'de' })], EARLIER, ids()),
    );
    const plan = planSync(held, [], NOW, ids());
    expect(plan.newVersions).toEqual([]);
    expect(plan.languages.map((l) => [l.language, l.status, l.version_id])).toEqual([
      ['en-US', 'deleted', 'wav_2'],
      ['de', 'deleted', 'wav_2'],
    ]);
    const after = heldAfter(plan, held);
    expect(planSync(after, [], NOW, ids()).languages).toEqual([]);
  });

  it('a language removed while others remain makes a new version that carries it as deleted', () => {
    const held = heldAfter(
      planSync([], [meta(), meta({ id: '1002', language: 'de' })], EARLIER, ids()),
    );
    const plan = planSync(held, [meta()], NOW, ids());
    expect(plan.newVersions).toHaveLength(1);
    expect(plan.languages.map((l) => [l.language, l.status])).toEqual([
      ['en-US', 'approved'],
      ['de', 'deleted'],
    ]);
  });

  it('the default language is the one Meta created first, and moves only when it is gone', () => {
    const plan = planSync(
      [],
      [meta({ id: '20', language: 'de' }), meta({ id: '3', language: 'fr' })],
      NOW,
      ids(),
    );
    expect(plan.newTemplates[0].default_language).toBe('fr');
    const held = heldAfter(plan);
    const kept = planSync(
      held,
      [
        meta({ id: '20', language: 'de' }),
        meta({ id: '3', language: 'fr' }),
        meta({ id: '1', language: 'es' }),
      ],
      NOW,
      ids(),
    );
    expect(kept.templates[0].default_language).toBe('fr');
    const moved = planSync(
      held,
      [meta({ id: '20', language: 'de' }), meta({ id: '1', language: 'es' })],
      NOW,
      ids(),
    );
    expect(moved.templates[0].default_language).toBe('es');
  });
});
