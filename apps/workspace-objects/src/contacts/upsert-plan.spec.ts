import { readContact } from './contact-input';
import type { PropertyCatalog } from './contact-input';
import type { ContactRow } from './contacts.repository';
import { planUpsert } from './upsert-plan';

const properties: PropertyCatalog = new Map([['plan', { type: 'string', archived: false }]]);
const entries = (raw: unknown[]) => raw.map((entry) => readContact(entry, 'entry', properties));
const stored = (fields: Partial<ContactRow>): ContactRow => ({
  id: 'con_a',
  workspace_id: 'ws',
  email: null,
  phone_number: null,
  external_id: null,
  first_name: null,
  last_name: null,
  data: {},
  created_at: new Date(0),
  updated_at: new Date(0),
  ...fields,
});
let n = 0;
const options = { replaceData: false, newId: () => `con_new${++n}` };

describe(planUpsert.name, () => {
  it('creates, updates and fails entry by entry, later entries seeing earlier ones', () => {
    const plan = planUpsert(
      'ws',
      entries([
        { email: 'new@x.test' },
        { email: 'ada@x.test', data: { plan: 'pro' } },
        { email: 'new@x.test', first_name: 'Again' },
        { email: 'broken' },
      ]),
      [stored({ email: 'ada@x.test', data: { plan: 'free', other: 1 } })],
      options,
    );
    expect(plan.results.map((r) => r.status)).toEqual(['created', 'updated', 'updated', 'failed']);
    expect(plan.results[2].contact_id).toBe(plan.results[0].contact_id);
    expect(plan.inserts).toEqual([
      expect.objectContaining({ email: 'new@x.test', first_name: 'Again' }),
    ]);
    expect(plan.updates).toEqual([
      expect.objectContaining({ id: 'con_a', data: { plan: 'pro', other: 1 } }),
    ]);
  });

  it('fails an entry matching two contacts (E04058) and one taking another contact’s phone (E04055)', () => {
    const plan = planUpsert(
      'ws',
      entries([
        { email: 'a@x.test', phone_number: '+14155550101' },
        { email: 'a@x.test', phone_number: '+14155550101' },
      ]),
      [stored({ email: 'a@x.test' }), stored({ id: 'con_b', phone_number: '+14155550101' })],
      options,
    );
    expect(plan.results[0].error?.code).toBe('E04058');
    const matchOnEmail = planUpsert(
      'ws',
      entries([{ email: 'a@x.test', phone_number: '+14155550101' }]),
      [stored({ email: 'a@x.test' }), stored({ id: 'con_b', phone_number: '+14155550101' })],
      { ...options, matchOn: 'email' },
    );
    expect(matchOnEmail.results[0]).toMatchObject({
      status: 'failed',
      error: { code: 'E04055', type: 'conflict_error' },
    });
    expect(matchOnEmail.updates).toEqual([]);
  });

  it('requires the match_on identifier in every entry and an email or phone for a new contact', () => {
    const plan = planUpsert('ws', entries([{ email: 'x@x.test' }, { external_id: 'u1' }]), [], {
      ...options,
      matchOn: 'external_id',
    });
    expect(plan.results.map((r) => r.error?.message)).toEqual([
      'match_on is external_id: every entry needs one',
      'a new contact needs an email or a phone_number',
    ]);
  });

  it('replaces the stored data map in replace mode', () => {
    const plan = planUpsert(
      'ws',
      entries([{ email: 'ada@x.test', data: { plan: 'team' } }]),
      [stored({ email: 'ada@x.test', data: { plan: 'free', other: 1 } })],
      { ...options, replaceData: true },
    );
    expect(plan.updates[0].data).toEqual({ plan: 'team' });
  });
});
