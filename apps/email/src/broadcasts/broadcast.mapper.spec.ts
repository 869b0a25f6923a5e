import { NO_COUNTERS, toBroadcastDto } from './broadcast.mapper';
import type { BroadcastRow } from './broadcast.mapper';

const row: BroadcastRow = {
  id: 'eb_01krdgeqcxet5s7t44vh8rt9mg',
  workspace_id: 'ws_1',
  from_email: 'news@acme.test',
  from_name: 'Acme',
  audience_id: 'adn_1',
  template_id: 'emt_1',
  template_version_id: null,
  category: 'marketing',
  ip_pool_id: null,
  reply_to: [],
  headers: { 'X-A': '1' },
  tags: [],
  metadata: null,
  track_opens: true,
  track_clicks: false,
  status: 'draft',
  failure_reason: null,
  failure_detail: null,
  recipient_count: 0,
  snapshot_at: null,
  prepared_after: null,
  prepared_at: null,
  created_at: new Date('2030-01-01T00:00:00Z'),
  scheduled_at: null,
  started_at: null,
  sent_at: null,
  canceled_at: null,
};

describe(toBroadcastDto.name, () => {
  it('a mutation answer has headers and no counters', () => {
    const dto = toBroadcastDto(row, { kind: 'mutation' });
    expect(dto).toMatchObject({
      headers: { 'X-A': '1' },
      from: { email: 'news@acme.test', name: 'Acme' },
    });
    expect(dto).not.toHaveProperty('sent_count');
    expect(dto).not.toHaveProperty('next');
  });

  it('a list row has no headers, and counters only once it has started', () => {
    expect(toBroadcastDto(row, { kind: 'list' })).not.toHaveProperty('headers');
    expect(toBroadcastDto(row, { kind: 'list', counters: NO_COUNTERS })).toHaveProperty(
      'sent_count',
      0,
    );
  });

  it('a single read has counters, sizes and next; failure fields only when failed', () => {
    const dto = toBroadcastDto(
      { ...row, status: 'failed', failure_reason: 'empty_audience', failure_detail: 'nobody' },
      { kind: 'single', counters: NO_COUNTERS, sizes: { html: 10, text: 5 } },
    );
    expect(dto).toMatchObject({
      failure_reason: 'empty_audience',
      failure_detail: 'nobody',
      html_bytes: 10,
      text_bytes: 5,
      delivered_recipients: 0,
      next: [],
    });
    expect(toBroadcastDto(row, { kind: 'mutation' }).failure_reason).toBeNull();
  });
});
