import { emailFoldStatement } from './email-stats-fold';
import { foldableEmailEvents } from './email-stats.consumer';

describe('foldableEmailEvents', () => {
  const event = (type: string, data: Record<string, unknown> | null) => ({
    id: `ev_${type}`,
    type,
    workspaceId: 'ws_1',
    timestamp: '2026-05-01T10:00:00.000Z',
    data,
  });

  it('keeps the counted types that name their message, with what the fold keys on', () => {
    expect(
      foldableEmailEvents([
        event('email.bounced', {
          email_id: 'em_1',
          recipient_id: 'rcp_1',
          bounce_type: 'hard',
          bounce_code: '5.1.1',
        }),
        event('email.opened', {
          email_id: 'em_1',
          recipient_id: 'rcp_1',
          is_prefetched: true,
          user_agent: 'Mozilla/5.0',
        }),
        event('email.scheduled', { email_id: 'em_1' }),
        event('email.delivered', { sms_id: 'sms_1' }),
        event('email.delivered', null),
      ]),
    ).toEqual([
      {
        event_id: 'ev_email.bounced',
        message_id: 'em_1',
        recipient_id: 'rcp_1',
        type: 'email.bounced',
        occurred_at: '2026-05-01T10:00:00.000Z',
        bounce_type: 'hard',
        bounce_code: '5.1.1',
        feedback_type: null,
        prefetched: false,
        user_agent: null,
        client: null,
      },
      {
        event_id: 'ev_email.opened',
        message_id: 'em_1',
        recipient_id: 'rcp_1',
        type: 'email.opened',
        occurred_at: '2026-05-01T10:00:00.000Z',
        bounce_type: null,
        bounce_code: null,
        feedback_type: null,
        prefetched: true,
        user_agent: 'Mozilla/5.0',
        // Classified here, by the rules email.mail_client_of renders (a proxy: the client only).
        client: ['Apple Mail', null, null],
      },
    ]);
  });

  it('leaves a user agent longer than 512 characters to the fold to classify', () => {
    const [open] = foldableEmailEvents([
      event('email.opened', { email_id: 'em_1', user_agent: 'iPhone'.repeat(100) }),
    ]);
    expect(open.client).toBeNull();
  });
});

describe('emailFoldStatement', () => {
  const statement = emailFoldStatement('SELECT 1');

  it('claims lifecycle stages per recipient, engagement per event, uniques per recipient', () => {
    expect(statement).toContain(`coalesce(i.recipient_id, i.message_id) || ':' || i.type`);
    expect(statement).toContain(`'ev:' || i.event_id`);
    expect(statement).toContain(`i.recipient_id || ':unique_open'`);
    expect(statement).toContain(`i.message_id || ':sends_accepted'`);
    expect(statement).toContain('ON CONFLICT DO NOTHING RETURNING key');
  });

  it('buckets every count by the send time and writes both grains in one statement', () => {
    expect(statement).toContain(`date_bin('15 minutes', m.created_at`);
    expect(statement.match(/INSERT INTO/g)).toHaveLength(4);
  });
});
