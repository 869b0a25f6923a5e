import { CommonErrors } from '@switchboard/contracts';
import type { RequestContext } from '@switchboard/contracts';
import { IdempotentWrites } from '@switchboard/persistence';
import { AppError, SealedBox } from '@switchboard/platform';
import { startMigratedDatabase } from '@switchboard/testing';
import type { MigratedDatabase } from '@switchboard/testing';
import type { DataSource } from 'typeorm';
import type { VerifyLookupPreferencesConfig } from '../config/verify-lookup-preferences.config';
import { verifyLookupPreferencesDatabase } from '../database/verify-lookup-preferences.database';
import type { PasscodeCarrier, PasscodeSend } from './passcode-channels';
import { PasscodeDelivery } from './passcode-delivery';
import { PasscodeIssuer } from './passcode-issuer';
import { PasscodeRecovery } from './passcode-recovery';
import { Passcodes } from './passcodes';
import { NewVerifications } from './new-verifications';
import { SendCap } from './send-cap';
import { VerificationChecks } from './verification-checks';
import type { PasscodeChannel } from './verification-rules';
import { VerificationAttemptsRepository } from './verification-attempts.repository';
import { VerificationsRepository } from './verifications.repository';
import { VerificationOutcomes } from './verification-outcomes';
import { VerificationsService } from './verifications.service';

/** A channel as the verify service sees it: it records what it is asked, hangs, or refuses. */
class RecordingChannel implements PasscodeCarrier {
  hang = false;
  timeOut = false;
  refuse = false;
  readonly asked: Array<{ key?: string; send: PasscodeSend }> = [];

  constructor(readonly channel: PasscodeChannel) {}

  send(context: RequestContext, send: PasscodeSend) {
    this.asked.push({ key: context.idempotencyKey, send });
    if (this.hang) return new Promise<never>(() => undefined);
    // What a channel service's answer lost on the way looks like: it may have sent.
    if (this.timeOut) return Promise.reject(new AppError(CommonErrors.ServiceTimeout));
    if (this.refuse)
      return Promise.resolve({
        ok: false as const,
        reason: 'channel_restricted' as const,
        error: 'the recipient opted out',
      });
    return Promise.resolve({
      ok: true as const,
      messageId: `${this.channel}_${this.asked.length}`,
      from: '+31612340000',
    });
  }
}

describe(PasscodeRecovery.name, () => {
  let database: MigratedDatabase;
  let config: VerifyLookupPreferencesConfig;
  let dataSource: DataSource;
  let sms: RecordingChannel;
  let whatsapp: RecordingChannel;
  let service: VerificationsService;
  let recovery: PasscodeRecovery;
  let outcomes: VerificationOutcomes;
  let attemptsRepository: VerificationAttemptsRepository;
  let verificationsRepository: VerificationsRepository;
  const context = (workspaceId: string): RequestContext => ({
    requestId: 'req_test',
    workspaceId,
    caller: { kind: 'api_key' },
  });
  const attempts = (verificationId: string) =>
    dataSource.query<Array<{ id: string; status: string; reason: string | null }>>(
      `SELECT id, status, reason FROM verify_lookup_preferences.verification_attempts
       WHERE verification_id = $1 ORDER BY created_at`,
      [verificationId],
    );
  /** As if the lease ran out: the process that took the attempt is long gone. */
  const age = (verificationId: string) =>
    dataSource.query(
      `UPDATE verify_lookup_preferences.verification_attempts
       SET updated_at = updated_at - interval '1 minute' WHERE verification_id = $1`,
      [verificationId],
    );

  beforeAll(async () => {
    database = await startMigratedDatabase((url) => {
      config = {
        DATABASE_URL: url,
        DATABASE_POOL_SIZE: 4,
        ENCRYPTION_KEY: 'the passcode recovery spec key 0123456789',
        VERIFY_CODE_TTL_SECONDS: 600,
        VERIFY_MAX_CHECKS: 5,
        VERIFY_RESEND_COOLDOWN_SECONDS: 30,
        VERIFY_SENDS_PER_HOUR: 5,
        VERIFY_CODE_LENGTH: 6,
        VERIFY_TEST_RECIPIENTS: [],
        VERIFY_TEST_CODE: '000000',
      } as unknown as VerifyLookupPreferencesConfig;
      return verifyLookupPreferencesDatabase(config);
    });
    dataSource = database.dataSource;
    const repository = new VerificationsRepository(dataSource);
    const attempts = new VerificationAttemptsRepository(dataSource);
    attemptsRepository = attempts;
    verificationsRepository = repository;
    const passcodes = new Passcodes(config);
    sms = new RecordingChannel('sms');
    whatsapp = new RecordingChannel('whatsapp');
    const delivery = new PasscodeDelivery(
      new Map<PasscodeChannel, PasscodeCarrier>([
        ['sms', sms],
        ['whatsapp', whatsapp],
      ]),
      repository,
      passcodes,
      attempts,
    );
    const writes = new IdempotentWrites(
      dataSource,
      'verify_lookup_preferences',
      new SealedBox(config.ENCRYPTION_KEY),
    );
    service = new VerificationsService(
      config,
      repository,
      delivery,
      new VerificationChecks(repository, attempts, writes, passcodes),
      writes,
      new SendCap(config, attempts),
      new NewVerifications(config, repository, attempts, passcodes, new SendCap(config, attempts)),
      new PasscodeIssuer(repository, passcodes, attempts),
    );
    recovery = new PasscodeRecovery(repository, delivery, passcodes, attempts);
    outcomes = new VerificationOutcomes(
      config,
      repository,
      attempts,
      new PasscodeIssuer(repository, passcodes, attempts),
    );
  });

  afterAll(async () => {
    await database?.stop();
  });

  it('sends again, with the same passcode and Idempotency-Key, an attempt whose process stopped mid-send', async () => {
    sms.hang = true;
    const created = await service.create(context('ws_a'), {
      to: { phone_number: '+31612345678' },
      options: { channels: ['sms'] },
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    const [lost] = sms.asked.splice(0);
    expect(lost.send.code).toMatch(/^\d{6}$/);
    expect(await attempts(created.id)).toEqual([expect.objectContaining({ status: 'sending' })]);
    sms.hang = false;
    // Within its lease the attempt is left alone.
    expect(await recovery.run()).toBe(0);
    await age(created.id);
    expect(await recovery.run()).toBe(1);
    expect(sms.asked).toHaveLength(1);
    expect(sms.asked[0].key).toBe(lost.key);
    expect(sms.asked[0].key).toMatch(/^verify_vat_/);
    expect(sms.asked[0].send.code).toBe(lost.send.code);
    expect(await attempts(created.id)).toEqual([expect.objectContaining({ status: 'sent' })]);
    const result = await service.check(context('ws_a'), {
      to: { phone_number: '+31612345678' },
      code: lost.send.code,
    });
    expect(result.success).toBe(true);
    // Nothing is left to recover.
    await age(created.id);
    expect(await recovery.run()).toBe(0);
  });

  it('closes delivery_timeout the stalled attempts of a verification that ended meanwhile', async () => {
    sms.hang = true;
    const created = await service.create(context('ws_b'), {
      to: { phone_number: '+31612345679' },
      options: { channels: ['sms'] },
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    sms.hang = false;
    sms.asked.splice(0);
    await dataSource.query(
      `UPDATE verify_lookup_preferences.verifications SET expires_at = now() - interval '1 second'
       WHERE id = $1`,
      [created.id],
    );
    await age(created.id);
    expect(await recovery.run()).toBe(1);
    expect(sms.asked).toHaveLength(0);
    expect(await attempts(created.id)).toEqual([
      expect.objectContaining({ status: 'undelivered', reason: 'delivery_timeout' }),
    ]);
  });

  it('leaves an attempt whose answer timed out sending (the plan does not move on), and the recovery asks again with the same key', async () => {
    sms.timeOut = true;
    const created = await service.create(context('ws_c'), {
      to: { phone_number: '+31612345680' },
      options: { channels: ['sms', 'whatsapp'] },
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    const [timedOut] = sms.asked.splice(0);
    expect(await attempts(created.id)).toEqual([expect.objectContaining({ status: 'sending' })]);
    sms.timeOut = false;
    await age(created.id);
    expect(await recovery.run()).toBe(1);
    expect(sms.asked.map((asked) => [asked.key, asked.send.code])).toEqual([
      [timedOut.key, timedOut.send.code],
    ]);
    const seeds = await dataSource.query<Array<{ passcode_seed: string | null }>>(
      `SELECT passcode_seed FROM verify_lookup_preferences.verification_attempts
       WHERE verification_id = $1`,
      [created.id],
    );
    expect(seeds).toEqual([{ passcode_seed: null }]);
  });

  /** The process "stops" at its next statement outside a transaction (on the pool's reads). */
  const stopOutsideTransactions = () => {
    const reads = verificationsRepository.reads;
    const spies = (['insertAttempt', 'statusOf', 'allUndelivered'] as const).map((name) => {
      const original = attemptsRepository[name].bind(attemptsRepository) as (
        ...args: unknown[]
      ) => Promise<unknown>;
      return jest
        .spyOn(attemptsRepository, name)
        .mockImplementation(((runner: unknown, ...rest: unknown[]) =>
          runner === reads
            ? Promise.reject(new Error('the process stopped'))
            : original(runner, ...rest)) as never);
    });
    return () => spies.forEach((spy) => spy.mockRestore());
  };

  it('commits the next channel with a refusal, so the recovery sends it if the process stops there', async () => {
    sms.refuse = true;
    const restore = stopOutsideTransactions();
    const created = await service.create(context('ws_d'), {
      to: { phone_number: '+31612345681' },
      options: { channels: ['sms', 'whatsapp'] },
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    restore();
    sms.refuse = false;
    expect(whatsapp.asked.filter((asked) => asked.send.address === '+31612345681')).toEqual([]);
    expect(await attempts(created.id)).toEqual([
      expect.objectContaining({ status: 'undelivered', reason: 'channel_restricted' }),
      expect.objectContaining({ status: 'sending' }),
    ]);
    await age(created.id);
    expect(await recovery.run()).toBe(1);
    const [sent] = whatsapp.asked.splice(0);
    expect(sent.key).toMatch(/^verify_vat_.*\.1$/);
    expect((await attempts(created.id)).map((attempt) => attempt.status)).toEqual([
      'undelivered',
      'sent',
    ]);
    sms.asked.splice(0);
  });

  it('fails the verification undeliverable in the transaction of the last refusal', async () => {
    whatsapp.refuse = true;
    const restore = stopOutsideTransactions();
    const created = await service.create(context('ws_e'), {
      to: { phone_number: '+31612345682' },
      options: { channels: ['whatsapp'] },
    });
    await new Promise((resolve) => setTimeout(resolve, 100));
    restore();
    whatsapp.refuse = false;
    const [row] = await dataSource.query<Array<{ status: string; reason: string }>>(
      'SELECT status, reason FROM verify_lookup_preferences.verifications WHERE id = $1',
      [created.id],
    );
    expect(row).toEqual({ status: 'failed', reason: 'undeliverable' });
    const events = await dataSource.query<Array<{ type: string }>>(
      `SELECT type FROM verify_lookup_preferences.outbox WHERE payload::text LIKE $1
       ORDER BY created_at, type`,
      [`%${created.id}%`],
    );
    expect(events.map((event) => event.type)).toEqual(
      expect.arrayContaining(['verify.verification.failed']),
    );
    await age(created.id);
    expect(await recovery.run()).toBe(0);
  });

  it('records an attempt answered twice (two runs that asked at once) once, and keeps its answer', async () => {
    sms.hang = true;
    const created = await service.create(context('ws_f'), {
      to: { phone_number: '+31612345683' },
      options: { channels: ['sms'] },
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    sms.hang = false;
    const [attempt] = await attempts(created.id);
    const repository = new VerificationAttemptsRepository(dataSource);
    const answer = { attemptId: attempt.id, messageId: 'sms_first', sender: null };
    expect([...(await repository.markSentMany(dataSource, [answer]))]).toEqual([attempt.id]);
    expect(
      await repository.markSentMany(dataSource, [{ ...answer, messageId: 'sms_second' }]),
    ).toEqual(new Set());
    expect(
      await repository.markRefused(dataSource, attempt.id, { reason: 'x', error: 'late' }),
    ).toBe(false);
    const [row] = await dataSource.query<Array<{ status: string; message_id: string }>>(
      `SELECT status, message_id FROM verify_lookup_preferences.verification_attempts
       WHERE id = $1`,
      [attempt.id],
    );
    expect(row).toEqual({ status: 'sent', message_id: 'sms_first' });
    sms.asked.splice(0);
  });

  it('takes an outcome that came before the acceptance was recorded, and moves the plan on', async () => {
    sms.hang = true;
    const created = await service.create(context('ws_g'), {
      to: { phone_number: '+31612345684' },
      options: { channels: ['sms', 'whatsapp'] },
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    sms.hang = false;
    const [asked] = sms.asked.splice(0);
    // The SMS service failed the message while the verify service still waited for its answer.
    await outcomes.take([
      {
        id: 'evt_early',
        type: 'sms.failed',
        workspaceId: 'ws_g',
        timestamp: new Date().toISOString(),
        data: {
          sms_id: 'sms_early',
          metadata: {
            switchboard_verification_id: created.id,
            switchboard_verification_attempt_id: asked.send.attemptId,
          },
          error: { description: 'the carrier refused it' },
        },
      },
    ]);
    const rows = await dataSource.query<Array<{ status: string; message_id: string | null }>>(
      `SELECT status, message_id FROM verify_lookup_preferences.verification_attempts
       WHERE verification_id = $1 ORDER BY created_at`,
      [created.id],
    );
    expect(rows).toEqual([
      { status: 'undelivered', message_id: 'sms_early' },
      { status: 'sending', message_id: null },
    ]);
    const [row] = await dataSource.query<Array<{ channel_index: number }>>(
      'SELECT channel_index FROM verify_lookup_preferences.verifications WHERE id = $1',
      [created.id],
    );
    expect(row.channel_index).toBe(1);
  });

  it('answers a next-channel retry whose first call is still delivering with its kept reply, advancing once', async () => {
    const created = await service.create(context('ws_h'), {
      to: { phone_number: '+31612345685' },
      options: { channels: ['sms', 'whatsapp'] },
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    whatsapp.hang = true;
    const keyed = {
      ...context('ws_h'),
      idempotencyKey: 'next-1',
      idempotencyFingerprint: 'fp-next-1',
    };
    const to = { to: { phone_number: '+31612345685' } };
    // The first call outlives the gateway's time-out: its channel does not answer.
    void service.nextChannel(keyed, to);
    await new Promise((resolve) => setTimeout(resolve, 100));
    const retried = await service.nextChannel(keyed, to);
    expect(retried).toMatchObject({ id: created.id, status: 'pending' });
    const [row] = await dataSource.query<Array<{ channel_index: number }>>(
      'SELECT channel_index FROM verify_lookup_preferences.verifications WHERE id = $1',
      [created.id],
    );
    expect(row.channel_index).toBe(1);
    expect(whatsapp.asked.filter((asked) => asked.send.address === '+31612345685')).toHaveLength(1);
    whatsapp.hang = false;
    whatsapp.asked.splice(0);
    sms.asked.splice(0);
  });

  it('fails the verification when an early outcome ends its last channel, a fallback', async () => {
    sms.refuse = true;
    whatsapp.hang = true;
    const created = await service.create(context('ws_i'), {
      to: { phone_number: '+31612345686' },
      options: { channels: ['sms', 'whatsapp'] },
    });
    await new Promise((resolve) => setTimeout(resolve, 100));
    sms.refuse = false;
    whatsapp.hang = false;
    const asked = whatsapp.asked.find((entry) => entry.send.address === '+31612345686');
    expect(asked?.send.attemptId).toMatch(/\.1$/);
    await outcomes.take([
      {
        id: 'evt_early_fallback',
        type: 'whatsapp.failed',
        workspaceId: 'ws_i',
        timestamp: new Date().toISOString(),
        data: {
          whatsapp_id: 'wam_early',
          metadata: {
            switchboard_verification_id: created.id,
            switchboard_verification_attempt_id: asked?.send.attemptId,
          },
        },
      },
    ]);
    const [row] = await dataSource.query<
      Array<{ status: string; reason: string; channel_index: number; last_channel: string }>
    >(
      `SELECT status, reason, channel_index, last_channel
       FROM verify_lookup_preferences.verifications WHERE id = $1`,
      [created.id],
    );
    expect(row).toEqual({
      status: 'failed',
      reason: 'undeliverable',
      channel_index: 1,
      last_channel: 'whatsapp',
    });
    const events = await dataSource.query<Array<{ type: string }>>(
      `SELECT type FROM verify_lookup_preferences.outbox WHERE payload::text LIKE $1`,
      [`%${created.id}%`],
    );
    expect(events.map((event) => event.type)).toEqual(
      expect.arrayContaining([
        'verify.attempt.sent',
        'verify.attempt.undelivered',
        'verify.verification.failed',
      ]),
    );
    whatsapp.asked.splice(0);
    sms.asked.splice(0);
  });
});
