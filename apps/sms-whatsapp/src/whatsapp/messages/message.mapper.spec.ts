import { toWhatsAppMessage } from './message.mapper';
import type { WhatsAppMessageRow } from './message.mapper';

const row = (over: Partial<WhatsAppMessageRow>): WhatsAppMessageRow => ({
  id: 'wam_1',
  workspace_id: 'ws',
  direction: 'outbound',
  status: 'accepted',
  number_id: 'wan_1',
  business_phone: '+31201234567',
  contact_phone: '+31612345678',
  contact_bsuid: null,
  contact_username: 'someone',
  contact_display_name: 'Some One',
  content_kind: 'template',
  content: {
    slug: 'otp',
    category: 'authentication',
    language: 'en',
    components: [{ type: 'body', parameters: [{ type: 'text', text: '123456' }] }],
  },
  category: 'authentication',
  in_reply_to_message_id: null,
  interactive_reply: null,
  unsupported: null,
  reaction: null,
  inbound_reaction: null,
  last_error_code: null,
  last_error_description: null,
  last_error_meta_code: null,
  last_error_at: null,
  tags: [],
  metadata: {},
  created_at: new Date('2026-01-01T00:00:00Z'),
  sent_at: null,
  delivered_at: null,
  read_at: null,
  ...over,
});

describe('toWhatsAppMessage', () => {
  it("never returns an authentication template's values, nor the contact's profile outbound", () => {
    const message = toWhatsAppMessage(row({}));
    expect(message.template).toEqual({
      slug: 'otp',
      category: 'authentication',
      language: 'en',
      components: [],
    });
    expect(message.to).toEqual({ phone_number: '+31612345678' });
    expect(message.from).toEqual({ phone_number: '+31201234567' });
    expect(message).not.toHaveProperty('last_error');
  });

  it('shows the profile on what the contact sent, and the failure detail', () => {
    const inbound = toWhatsAppMessage(
      row({
        direction: 'inbound',
        status: 'received',
        content_kind: 'text',
        content: { body: 'hi' },
      }),
    );
    expect(inbound.from).toEqual({
      phone_number: '+31612345678',
      username: 'someone',
      display_name: 'Some One',
    });
    expect(inbound.text).toEqual({ body: 'hi' });
    const failed = toWhatsAppMessage(
      row({
        status: 'failed',
        last_error_code: 'undeliverable',
        last_error_description: 'Not on WhatsApp',
        last_error_meta_code: 131026,
        last_error_at: new Date('2026-01-01T00:00:05Z'),
      }),
    );
    expect(failed.last_error).toEqual({
      code: 'undeliverable',
      description: 'Not on WhatsApp',
      meta_error_code: '131026',
      occurred_at: '2026-01-01T00:00:05.000Z',
    });
  });
});
