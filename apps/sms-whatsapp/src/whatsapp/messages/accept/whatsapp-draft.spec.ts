import { draftOutbound, isTransactional } from './whatsapp-draft';
import type { OutboundWhatsApp } from './whatsapp-draft';

const send: OutboundWhatsApp = {
  numberId: 'wan_1',
  businessPhone: '+31612340000',
  businessAccount: '102290129340398',
  to: { kind: 'phone_number', phoneNumber: '+31655550101' },
  contentKind: 'template',
  content: { slug: 'spring_sale', category: 'marketing', language: 'en', components: [] },
  freeForm: false,
  category: 'marketing',
  templateId: 'wat_1',
  templateVersionId: 'wav_1',
  templateLanguage: 'en',
  inReplyToMessageId: null,
  tags: [],
  metadata: {},
  graph: { messaging_product: 'whatsapp', type: 'template' },
};
const now = new Date('2026-11-27T12:00:00Z');

describe(draftOutbound.name, () => {
  it('drafts an accepted message with its event and its dispatch job', () => {
    const draft = draftOutbound('ws_1', send, now);
    expect(draft.row).toMatchObject({ status: 'accepted', last_error_code: null });
    expect(draft.events.map((event) => event.type)).toEqual(['whatsapp.accepted']);
    expect(draft.job).toEqual({ message_id: draft.row.id, graph: send.graph });
  });

  it('drafts a send the preferences stop as rejected with recipient_suppressed, never dispatched', () => {
    const draft = draftOutbound('ws_1', send, now, { optedOut: true });
    expect(draft.row).toMatchObject({
      status: 'rejected',
      last_error_code: 'recipient_suppressed',
      last_error_at: now,
    });
    expect(draft.row.last_error_description).toContain('102290129340398');
    expect(draft.events.map((event) => event.type)).toEqual([
      'whatsapp.accepted',
      'whatsapp.rejected',
    ]);
    expect(draft.events[1].error).toMatchObject({ code: 'recipient_suppressed' });
    expect(draft.job).toBeNull();
  });
});

describe(isTransactional.name, () => {
  it('counts marketing templates only as non-transactional', () => {
    expect(isTransactional({ category: 'marketing' })).toBe(false);
    expect(isTransactional({ category: 'utility' })).toBe(true);
    expect(isTransactional({ category: 'authentication' })).toBe(true);
    // A session (non-template) message answers inside the window the person opened.
    expect(isTransactional({ category: null })).toBe(true);
  });
});
