import type { AudienceSnapshotMember, Contact } from '@switchboard/contracts';
import { newId } from '@switchboard/persistence';
import type { BroadcastMessageDraft } from './broadcast-messages.repository';
import type { RenderedBroadcastContent } from './broadcast-templates';

/**
 * The rendered characters one page writes in one statement at most. A page is up to 1,000
 * contacts and a template's bodies up to 1 MB each: uncut, a large template's page would pass
 * V8's string limit (about 512 M characters) when serialised, and fail on every attempt.
 */
export const PAGE_CONTENT_CHARACTERS = 32 * 1024 * 1024;

/** A page's messages, and where the next page starts (`complete`: nothing of this one is left). */
export type PageDrafts =
  | { ok: true; drafts: BroadcastMessageDraft[]; after: string | null; complete: boolean }
  | { ok: false; contactId: string; error: unknown };

/**
 * The messages of a snapshot page, in contact order: one per member with an address and a
 * contact that `stopped` does not hold, rendered. Once they hold `budget` characters the rest
 * of the page is left for the next one: `after` is then the last contact taken.
 */
export function pageDrafts(
  page: { data: AudienceSnapshotMember[]; next: string | null },
  stopped: ReadonlySet<string>,
  render: (contact: Contact) => RenderedBroadcastContent,
  budget = PAGE_CONTENT_CHARACTERS,
): PageDrafts {
  const drafts: BroadcastMessageDraft[] = [];
  const now = Date.now();
  let characters = 0;
  for (const [index, member] of page.data.entries()) {
    if (characters >= budget && index > 0)
      return { ok: true, drafts, after: page.data[index - 1].contact_id, complete: false };
    const contact = member.contact;
    if (!member.email || !contact || stopped.has(member.email)) continue;
    let content: RenderedBroadcastContent;
    try {
      content = render(contact);
    } catch (error) {
      return { ok: false, contactId: contact.id, error };
    }
    characters +=
      content.subject.length + (content.html?.length ?? 0) + (content.text?.length ?? 0);
    const name = [contact.first_name, contact.last_name].filter(Boolean).join(' ');
    drafts.push({
      id: newId('em', now),
      recipient_id: newId('er', now),
      event_id: newId('ev', now),
      contact_id: contact.id,
      email: member.email,
      name: name || null,
      ...content,
    });
  }
  return {
    ok: true,
    drafts,
    after: page.data.at(-1)?.contact_id ?? null,
    complete: page.next === null,
  };
}
