import { acceptedView, draftInbound, draftOutbound } from './sms-draft';

const sms = {
  to: '+31612345678',
  from: 'Acme',
  text: 'Your code is 123456',
  category: 'authentication' as const,
  smartEncoding: false,
  tags: [{ name: 'flow', value: 'login' }],
  metadata: { user: 'u_1' },
};
const now = new Date('2026-11-26T12:00:00Z');

describe(draftOutbound.name, () => {
  it('drafts an accepted message with its sms.accepted event and a submit job', () => {
    const draft = draftOutbound('ws_1', sms, now, { suppressed: false });
    expect(draft.queued).toBe(true);
    expect(draft.row).toMatchObject({
      id: expect.stringMatching(/^sms_/),
      status: 'accepted',
      country_code: 'NL',
      segments: 1,
      encoding: 'GSM_7BIT',
      characters: 19,
      text: sms.text,
    });
    expect(draft.events.map((event) => event.type)).toEqual(['sms.accepted']);
    expect(draft.events[0].data).toMatchObject({
      sms_id: draft.row.id,
      to: sms.to,
      from: 'Acme',
      tags: sms.tags,
      metadata: sms.metadata,
      segments: { count: 1, encoding: 'GSM_7BIT', characters: 19 },
    });
  });

  it('drafts a suppressed pair as rejected with recipient_opted_out, never queued', () => {
    const draft = draftOutbound('ws_1', sms, now, { suppressed: true });
    expect(draft.queued).toBe(false);
    expect(draft.row).toMatchObject({ status: 'rejected', last_error_code: 'recipient_opted_out' });
    expect(draft.events.map((event) => event.type)).toEqual(['sms.accepted', 'sms.rejected']);
  });

  it('says when a preference stopped the send rather than an opt-out episode', () => {
    const draft = draftOutbound('ws_1', { ...sms, category: 'marketing' }, now, {
      suppressed: 'preference',
    });
    expect(draft.queued).toBe(false);
    expect(draft.row).toMatchObject({
      status: 'rejected',
      last_error_code: 'recipient_opted_out',
      last_error_description:
        '+31612345678 revoked consent to marketing messages from Acme (a preference)',
    });
  });

  it('answers an authentication body redacted, keeping it stored for the submit', () => {
    const draft = draftOutbound('ws_1', sms, now, { suppressed: false });
    expect(acceptedView(draft).text).toBe('**REDACTED**');
    expect(draft.row.text).toBe(sms.text);
  });

  it('stores the smart-encoded body as sent', () => {
    const draft = draftOutbound(
      'ws_1',
      { ...sms, text: '“Hi” – there', category: 'service', smartEncoding: true },
      now,
      { suppressed: false },
    );
    expect(draft.row).toMatchObject({ text: '"Hi" - there', encoding: 'GSM_7BIT' });
    expect(acceptedView(draft).options).toEqual({ smart_encoding: true });
  });
});

describe(draftInbound.name, () => {
  it('drafts a received message, its country from the sender, never queued', () => {
    const draft = draftInbound('ws_1', {
      from: '+447700900123',
      to: '+31612345678',
      text: 'STOP',
      carrier: 'nl',
      receivedAt: now,
    });
    expect(draft.queued).toBe(false);
    expect(draft.row).toMatchObject({
      direction: 'inbound',
      status: 'received',
      category: null,
      country_code: 'GB',
    });
    const view = acceptedView(draft);
    expect(view.options).toBeUndefined();
    expect(draft.events[0]).toMatchObject({ type: 'sms.received', data: { text: 'STOP' } });
  });
});
