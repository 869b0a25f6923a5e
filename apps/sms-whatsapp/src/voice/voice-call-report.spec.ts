import type { VoiceCallCost, VoiceCallReport } from '@switchboard/contracts';
import { voiceCallEvents } from './voice-call-events';
import { checkedReport, keptTags, mergeReport, stageOf } from './voice-call-report';

const T0 = '2026-11-20T10:00:00.000Z';
const at = (s: number) => new Date(Date.parse(T0) + s * 1000).toISOString();
const identity = { id: 'vcl_1', workspace_id: 'ws_1' };
const received = new Date(at(1000));
const report = (fields: Partial<VoiceCallReport>): VoiceCallReport => ({
  session_id: 's1',
  direction: 'outbound',
  from: '+14155551234',
  to: '+16505559876',
  status: 'ringing',
  started_at: T0,
  ...fields,
});

describe('voice call reports', () => {
  it('orders statuses: ringing, then connected, then every final outcome', () => {
    expect(
      ['ringing', 'in_progress', 'answered', 'no_answer', 'failed'].map((s) => stageOf(s as never)),
    ).toEqual([0, 1, 2, 2, 2]);
  });

  it('walks a call from ringing to ended, passing each event once', () => {
    const first = mergeReport(undefined, report({}), identity, received);
    expect(voiceCallEvents(first, received).map((e) => e.type)).toEqual(['voice_call.initiated']);
    const up = mergeReport(first.call, report({ status: 'in_progress' }), identity, received);
    expect(up.call.answered_at).toBe(received.toISOString());
    expect(voiceCallEvents(up, received).map((e) => e.type)).toEqual(['voice_call.answered']);
    const done = mergeReport(
      up.call,
      report({ status: 'answered', ended_at: at(1060) }),
      identity,
      received,
    );
    expect(done.call).toMatchObject({ duration_ms: 1_060_000, billable_ms: 60_000 });
    expect(voiceCallEvents(done, received).map((e) => e.type)).toEqual(['voice_call.ended']);
    const again = mergeReport(
      done.call,
      report({ status: 'answered', ended_at: at(1060) }),
      identity,
      received,
    );
    expect(voiceCallEvents(again, received)).toEqual([]);
    const stale = mergeReport(done.call, report({ status: 'ringing' }), identity, received);
    expect(stale.call.status).toBe('answered');
    expect(stale.call.duration_ms).toBe(1_060_000);
    // The same late report with its in-flight fields as nulls erases nothing.
    const nulls = mergeReport(
      done.call,
      report({
        status: 'ringing',
        answered_at: null,
        ended_at: null,
        duration_ms: null,
        billable_ms: null,
        sip_response_code: null,
      }),
      identity,
      received,
    );
    expect(nulls.call).toEqual(done.call);
    expect(voiceCallEvents(nulls, received)).toEqual([]);
  });

  it('records busy and canceled as failed, as the SDK says they are reported today', () => {
    for (const status of ['busy', 'canceled'] as const) {
      const ended = mergeReport(undefined, report({ status, ended_at: at(5) }), identity, received);
      expect(ended.call.status).toBe('failed');
      expect(ended.call.ended_at).toBe(at(5));
    }
  });

  it('dates an answer reported without its time no later than the end', () => {
    const once = mergeReport(
      undefined,
      report({ status: 'answered', ended_at: at(30) }),
      identity,
      received,
    );
    expect(once.call).toMatchObject({ answered_at: at(30), duration_ms: 30_000, billable_ms: 0 });
    expect(voiceCallEvents(once, received).map((e) => e.type)).toEqual([
      'voice_call.initiated',
      'voice_call.answered',
      'voice_call.ended',
    ]);
  });

  it('keeps the first five valid tags, a repeated name keeping its first value', () => {
    const tags = [
      { name: 'a', value: '1' },
      { name: 'a', value: '2' },
      { name: 'b c', value: '3' },
      ...['d', 'e', 'f', 'g', 'h'].map((name) => ({ name, value: 'x' })),
    ];
    expect(keptTags(tags)?.map((t) => t.name)).toEqual(['a', 'd', 'e', 'f', 'g']);
    expect(keptTags([{ name: 'x'.repeat(33), value: 'y' }])).toBeUndefined();
  });

  it('refuses an in-flight call with an end, and numbers or instants that are none', () => {
    expect(checkedReport(report({ ended_at: at(5), cost: undefined }), 'ws_1')).toEqual([
      expect.objectContaining({ param: 'ended_at' }),
    ]);
    const bad = checkedReport(
      report({ from: 'anonymous', started_at: '2026-02-30T00:00:00Z', workspace_id: 'ws_2' }),
      'ws_1',
    );
    expect((bad as Array<{ param: string }>).map((p) => p.param).sort()).toEqual([
      'from',
      'started_at',
      'workspace_id',
    ]);
    expect(checkedReport(report({ from: '0031201234567' }), 'ws_1')).toMatchObject({
      from: '+31201234567',
    });
  });

  it("requires each route type's fields, keeps only those, and names every cost component", () => {
    const routed = (route: unknown) =>
      checkedReport(report({ route: route as VoiceCallReport['route'] }), 'ws_1');
    expect(routed({ type: 'trunk' })).toEqual([
      expect.objectContaining({ param: 'route.trunk_id' }),
    ]);
    expect(routed({ type: 'forward', forward_to: 'reception' })).toEqual([
      expect.objectContaining({ param: 'route.forward_to' }),
      expect.objectContaining({ param: 'route.forward_as' }),
    ]);
    expect(routed({ type: 'reject', trunk_id: 'trk_1' })).toMatchObject({
      route: { type: 'reject' },
    });
    expect(
      routed({ type: 'forward', forward_to: '0031201234567', forward_as: 'calling_number' }),
    ).toMatchObject({
      route: { type: 'forward', forward_to: '+31201234567', forward_as: 'calling_number' },
    });
    const ended = checkedReport(
      report({
        status: 'answered',
        ended_at: at(60),
        cost: { amount: '0.10', currency_code: 'EUR' } as VoiceCallCost,
      }),
      'ws_1',
    );
    expect(ended).toMatchObject({
      cost: {
        amount: '0.10',
        currency_code: 'EUR',
        outbound_amount: null,
        inbound_amount: null,
        call_handling_amount: null,
        recording_amount: null,
        transcription_amount: null,
      },
    });
  });
});
