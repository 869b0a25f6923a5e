import type { AudienceSnapshotMember, Contact } from '@switchboard/contracts';
import { pageDrafts } from './page-drafts';

const member = (id: string, email: string | null): AudienceSnapshotMember => ({
  contact_id: id,
  email,
  contact: {
    id,
    email,
    phone_number: null,
    first_name: id,
    last_name: null,
    external_id: null,
    data: {},
    created_at: '',
    updated_at: '',
  },
});
const body = (size: number) => (contact: Contact) => ({
  subject: `Hi ${contact.first_name}`,
  html: 'x'.repeat(size),
  text: null,
});

describe(pageDrafts.name, () => {
  const page = {
    data: [
      member('c1', 'a@x.test'),
      member('c2', null),
      member('c3', 'c@x.test'),
      member('c4', 'd@x.test'),
    ],
    next: null,
  };

  it('drafts every addressable, unstopped member of a small page and ends where the page ends', () => {
    const result = pageDrafts(page, new Set(['d@x.test']), body(10));
    expect(result).toMatchObject({ ok: true, after: 'c4', complete: true });
    if (result.ok) expect(result.drafts.map((d) => d.contact_id)).toEqual(['c1', 'c3']);
  });

  it('cuts a page of large copies at the budget: the next page starts after the last one taken', () => {
    const first = pageDrafts(page, new Set(), body(1_000), 1_000);
    expect(first).toMatchObject({ ok: true, after: 'c1', complete: false });
    if (first.ok) expect(first.drafts.map((d) => d.contact_id)).toEqual(['c1']);
    // The page read again after c1: c2 has no address, c3 fills the budget, c4 is left.
    const second = pageDrafts(
      { data: page.data.slice(1), next: null },
      new Set(),
      body(1_000),
      1_000,
    );
    expect(second).toMatchObject({ ok: true, after: 'c3', complete: false });
    if (second.ok) expect(second.drafts.map((d) => d.contact_id)).toEqual(['c3']);
    const last = pageDrafts(
      { data: page.data.slice(3), next: null },
      new Set(),
      body(1_000),
      1_000,
    );
    expect(last).toMatchObject({ ok: true, after: 'c4', complete: true });
  });

  it('keeps the page whole when it fits, even if more pages follow', () => {
    const result = pageDrafts({ ...page, next: 'c4' }, new Set(), body(10), 1_500);
    expect(result).toMatchObject({ ok: true, after: 'c4', complete: false });
    if (result.ok) expect(result.drafts).toHaveLength(3);
  });

  it('names the contact a render fails for', () => {
    const failing = () => {
      throw new Error('boom');
    };
    expect(pageDrafts(page, new Set(), failing)).toMatchObject({ ok: false, contactId: 'c1' });
  });
});
