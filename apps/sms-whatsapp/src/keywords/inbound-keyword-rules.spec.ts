import { CursorCodec, IdempotentWrites, newId } from '@switchboard/persistence';
import { SealedBox } from '@switchboard/platform';
import { startMigratedDatabase } from '@switchboard/testing';
import type { MigratedDatabase } from '@switchboard/testing';
import { parsePhoneNumberFromString } from 'libphonenumber-js';
import type { DataSource } from 'typeorm';
import type { SmsWhatsappConfig } from '../config/sms-whatsapp.config';
import { smsWhatsappDatabase } from '../database/sms-whatsapp.database';
import type { InboundForRules } from '../inbound/inbound-rules';
import { SmsSuppressionsRepository } from '../suppressions/sms-suppressions.repository';
import { SmsSuppressionsService } from '../suppressions/sms-suppressions.service';
import { InboundKeywordRules } from './inbound-keyword-rules';
import { KeywordRulesRepository } from './keyword-rules.repository';

interface EpisodeRow {
  id: string;
  workspace_id: string;
  reason: string;
  source_sms_id: string | null;
  ended_at: Date | null;
  ended_reason: string | null;
  source_end_sms_id: string | null;
  effective_at: Date;
  last_asserted_at: Date;
}

const US_NUMBER = '+12025550142';
const NL_NUMBER = '+31201234567';
const FR_NUMBER = '+33612345678';
const US_PERSON = '+14155550100';
const NL_PERSON = '+31612345678';
const FR_PERSON = '+33698765432';

describe(InboundKeywordRules.name, () => {
  let database: MigratedDatabase;
  let dataSource: DataSource;
  let rules: InboundKeywordRules;
  let clock = Date.parse('2026-11-26T10:00:00Z');
  let workspace = 0;
  const newWorkspace = () => `ws_test${String(++workspace).padStart(22, '0')}`;

  const receive = (ws: string, from: string, to: string, text: string) => {
    clock += 60_000;
    const inbound: InboundForRules = {
      workspaceId: ws,
      messageId: newId('sms'),
      from,
      to,
      toCountry: parsePhoneNumberFromString(to)?.country as string,
      text,
      receivedAt: new Date(clock),
    };
    return dataSource
      .transaction((manager) => rules.apply(manager, inbound))
      .then((replies) => ({ inbound, replies }));
  };
  const episodes = async (ws: string, destination: string, originator: string) =>
    dataSource.query<EpisodeRow[]>(
      `SELECT * FROM sms_whatsapp.sms_suppressions
       WHERE workspace_id = $1 AND destination = $2 AND originator = $3 ORDER BY created_at`,
      [ws, destination, originator],
    );
  const events = async (ws: string) =>
    dataSource.query<Array<{ type: string; payload: { data: Record<string, unknown> } }>>(
      `SELECT type, payload FROM sms_whatsapp.outbox WHERE workspace_id = $1 ORDER BY seq`,
      [ws],
    );
  const addRule = (ws: string, values: Record<string, unknown>) =>
    dataSource.query(
      `INSERT INTO sms_whatsapp.sms_keyword_rules
         (id, workspace_id, operation, country, number, keywords, reply, reply_disabled_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
      [
        newId('skw'),
        ws,
        values.operation,
        values.country ?? null,
        values.number ?? null,
        values.keywords ?? [],
        values.reply ?? null,
        values.reply_disabled_at ?? null,
      ],
    );

  beforeAll(async () => {
    database = await startMigratedDatabase((url) =>
      smsWhatsappDatabase({ DATABASE_URL: url, DATABASE_POOL_SIZE: 2 } as SmsWhatsappConfig),
    );
    dataSource = database.dataSource;
    const box = new SealedBox('an encryption key for the keyword rule tests');
    const suppressions = new SmsSuppressionsService(
      new SmsSuppressionsRepository(dataSource),
      new IdempotentWrites(dataSource, 'sms_whatsapp', box),
      new CursorCodec('cursor:an encryption key for the keyword rule tests', 3_600_000),
    );
    rules = new InboundKeywordRules(new KeywordRulesRepository(dataSource), suppressions);
    await dataSource.query(
      `INSERT INTO sms_whatsapp.numbers (number, country_code, number_type, capabilities)
       VALUES ($1, 'US', 'local', '{sms}'), ($2, 'NL', 'mobile', '{sms}'), ($3, 'FR', 'mobile', '{sms}')`,
      [US_NUMBER, NL_NUMBER, FR_NUMBER],
    );
  });

  afterAll(async () => {
    await database?.stop();
  });

  it('opens a keyword_stop episode on STOP, emits sms_suppression.created and confirms', async () => {
    const ws = newWorkspace();
    const { inbound, replies } = await receive(ws, US_PERSON, US_NUMBER, ' Stop! ');
    expect(replies).toEqual([
      {
        from: US_NUMBER,
        to: US_PERSON,
        operation: 'stop',
        text: expect.stringContaining('unsubscribed'),
      },
    ]);
    const [episode] = await episodes(ws, US_PERSON, US_NUMBER);
    expect(episode).toMatchObject({
      id: expect.stringMatching(/^ssp_/),
      reason: 'keyword_stop',
      origin: 'keyword',
      source_sms_id: inbound.messageId,
      ended_at: null,
    });
    expect(episode.effective_at.toISOString()).toBe(inbound.receivedAt.toISOString());
    const [event, statement] = await events(ws);
    expect(event).toMatchObject({
      type: 'sms_suppression.created',
      payload: {
        data: {
          suppression_id: episode.id,
          destination: US_PERSON,
          originator: US_NUMBER,
          reason: 'keyword_stop',
          workspace_id: ws,
        },
      },
    });
    // In the same transaction: the person's own revoke, for the preference ledger.
    expect(statement).toEqual({
      type: 'internal.preference.statement',
      payload: {
        type: 'internal.preference.statement',
        timestamp: inbound.receivedAt.toISOString(),
        data: {
          channel: 'sms',
          handle: US_PERSON,
          sender_scope: US_NUMBER,
          status: 'revoked',
          coverage: 'all',
          origin: 'keyword',
          effective_at: inbound.receivedAt.toISOString(),
          consented_at: null,
          source: `sms:${inbound.messageId}`,
        },
      },
    });
  });

  it('re-asserts the episode on a repeated STOP (no new record, no new suppression event) and confirms again', async () => {
    const ws = newWorkspace();
    await receive(ws, US_PERSON, US_NUMBER, 'STOP');
    const [first] = await episodes(ws, US_PERSON, US_NUMBER);
    const { inbound, replies } = await receive(ws, US_PERSON, US_NUMBER, 'unsubscribe');
    expect(replies).toHaveLength(1);
    const after = await episodes(ws, US_PERSON, US_NUMBER);
    expect(after).toHaveLength(1);
    expect(after[0].id).toBe(first.id);
    expect(after[0].source_sms_id).toBe(first.source_sms_id);
    expect(after[0].last_asserted_at.toISOString()).toBe(inbound.receivedAt.toISOString());
    expect(after[0].last_asserted_at > first.last_asserted_at).toBe(true);
    // The person said it again: the ledger hears it again.
    const written = await events(ws);
    expect(written.map((event) => event.type)).toEqual([
      'sms_suppression.created',
      'internal.preference.statement',
      'internal.preference.statement',
    ]);
    expect(written[2].payload.data).toMatchObject({
      status: 'revoked',
      source: `sms:${inbound.messageId}`,
    });
  });

  it('ends the keyword_stop episode on START, leaving a manual one in force, and confirms', async () => {
    const ws = newWorkspace();
    await receive(ws, NL_PERSON, NL_NUMBER, 'stop');
    await dataSource.query(
      `INSERT INTO sms_whatsapp.sms_suppressions
         (id, workspace_id, destination, originator, reason, origin, effective_at, last_asserted_at)
       VALUES ($1, $2, $3, $4, 'manual', 'api_key', now(), now())`,
      [newId('ssp'), ws, NL_PERSON, NL_NUMBER],
    );
    const { inbound, replies } = await receive(ws, NL_PERSON, NL_NUMBER, 'Start');
    expect(replies).toEqual([
      expect.objectContaining({ operation: 'start', text: expect.stringContaining('aangemeld') }),
    ]);
    const [stop, manual] = await episodes(ws, NL_PERSON, NL_NUMBER);
    expect(stop).toMatchObject({
      ended_reason: 'keyword_start',
      source_end_sms_id: inbound.messageId,
      ended_at: expect.any(Date),
    });
    expect(manual).toMatchObject({ reason: 'manual', ended_at: null });
    const granted = (await events(ws)).at(-1);
    expect(granted?.payload.data).toEqual({
      channel: 'sms',
      handle: NL_PERSON,
      sender_scope: NL_NUMBER,
      status: 'granted',
      coverage: 'all',
      origin: 'keyword',
      effective_at: inbound.receivedAt.toISOString(),
      consented_at: inbound.receivedAt.toISOString(),
      source: `sms:${inbound.messageId}`,
    });
    // A second START finds nothing in force and still answers, but states nothing.
    const before = (await events(ws)).length;
    expect((await receive(ws, NL_PERSON, NL_NUMBER, 'START')).replies).toHaveLength(1);
    expect(await events(ws)).toHaveLength(before);
  });

  it('opens nothing and confirms nothing for a STOP received before a START that already ended the opt-out (a late redelivery)', async () => {
    const ws = newWorkspace();
    await receive(ws, NL_PERSON, NL_NUMBER, 'STOP');
    const lateStop: InboundForRules = {
      workspaceId: ws,
      messageId: newId('sms'),
      from: NL_PERSON,
      to: NL_NUMBER,
      toCountry: 'NL',
      text: 'STOP',
      receivedAt: new Date(clock + 30_000),
    };
    await receive(ws, NL_PERSON, NL_NUMBER, 'START');
    const replies = await dataSource.transaction((manager) => rules.apply(manager, lateStop));
    expect(replies).toEqual([]);
    const inForce = (await episodes(ws, NL_PERSON, NL_NUMBER)).filter((row) => !row.ended_at);
    expect(inForce).toEqual([]);
    const statements = (await events(ws)).filter((e) => e.type.startsWith('internal.'));
    expect(statements.map((e) => e.payload.data.status)).toEqual(['revoked', 'granted']);
  });

  it('answers HELP with the reply and its carrier suffix, recording nothing', async () => {
    const ws = newWorkspace();
    const { replies } = await receive(ws, US_PERSON, US_NUMBER, 'help?');
    expect(replies).toEqual([
      expect.objectContaining({
        operation: 'help',
        text: expect.stringMatching(/Msg&data rates may apply\. Reply STOP to opt out\.$/),
      }),
    ]);
    expect(await episodes(ws, US_PERSON, US_NUMBER)).toEqual([]);
  });

  it("leaves another workspace's episodes for the same pair untouched", async () => {
    const ws = newWorkspace();
    const neighbour = newWorkspace();
    await receive(neighbour, US_PERSON, US_NUMBER, 'STOP');
    await receive(ws, US_PERSON, US_NUMBER, 'STOP');
    await receive(ws, US_PERSON, US_NUMBER, 'START');
    const [theirs] = await episodes(neighbour, US_PERSON, US_NUMBER);
    expect(theirs).toMatchObject({ ended_at: null, reason: 'keyword_stop' });
    const [ours] = await episodes(ws, US_PERSON, US_NUMBER);
    expect(ours.ended_reason).toBe('keyword_start');
    expect((await events(neighbour)).map((event) => event.type)).toEqual([
      'sms_suppression.created',
      'internal.preference.statement',
    ]);
  });

  it("uses the workspace's rule: its reply, its keywords, and silence when self-managed", async () => {
    const ws = newWorkspace();
    await addRule(ws, { operation: 'help', country: 'US', reply: 'Acme: help@acme.example.' });
    await addRule(ws, {
      operation: 'stop',
      country: 'US',
      keywords: ['BASTA'],
      reply_disabled_at: new Date(),
    });
    const help = await receive(ws, US_PERSON, US_NUMBER, 'INFO');
    expect(help.replies[0].text).toBe(
      'Acme: help@acme.example. Msg&data rates may apply. Reply STOP to opt out.',
    );
    const stop = await receive(ws, US_PERSON, US_NUMBER, 'basta');
    expect(stop.replies).toEqual([]);
    expect(await episodes(ws, US_PERSON, US_NUMBER)).toHaveLength(1);
  });

  it('records no opt-out in a country without default coverage; custom rules still answer', async () => {
    const ws = newWorkspace();
    expect((await receive(ws, FR_PERSON, FR_NUMBER, 'STOP')).replies).toEqual([]);
    expect(await episodes(ws, FR_PERSON, FR_NUMBER)).toEqual([]);
    expect(await events(ws)).toEqual([]);
    await addRule(ws, {
      operation: 'custom',
      country: 'FR',
      keywords: ['HORAIRES'],
      reply: '9h-17h',
    });
    expect((await receive(ws, FR_PERSON, FR_NUMBER, 'horaires')).replies).toEqual([
      { from: FR_NUMBER, to: FR_PERSON, operation: 'custom', text: '9h-17h' },
    ]);
    // A subscriber whose own number is covered gets their country's rules on any of our numbers.
    expect((await receive(ws, US_PERSON, FR_NUMBER, 'STOP')).replies).toHaveLength(1);
    expect(await episodes(ws, US_PERSON, FR_NUMBER)).toHaveLength(1);
  });

  it('reads "STOP please" as an opt-out and conversation as nothing', async () => {
    const ws = newWorkspace();
    expect((await receive(ws, US_PERSON, US_NUMBER, 'Can I move my appointment?')).replies).toEqual(
      [],
    );
    expect((await receive(ws, US_PERSON, US_NUMBER, 'cancel my appointment')).replies).toEqual([]);
    expect(await episodes(ws, US_PERSON, US_NUMBER)).toEqual([]);
    expect((await receive(ws, US_PERSON, US_NUMBER, 'STOP please')).replies).toHaveLength(1);
    expect(await episodes(ws, US_PERSON, US_NUMBER)).toHaveLength(1);
  });

  it('answers in the words of the country the message arrives in before the sender’s', async () => {
    const ws = newWorkspace();
    const { replies } = await receive(ws, US_PERSON, NL_NUMBER, 'STOP');
    expect(replies[0].text).toContain('afgemeld');
  });
});
