import type {
  EmailCategory,
  EmailSuppressionOrigin,
  EmailSuppressionReason,
  RequestContext,
} from '@switchboard/contracts';
import { CursorCodec, IdempotentWrites, newId } from '@switchboard/persistence';
import type { MigratedDatabase } from '@switchboard/testing';
import { SealedBox } from '@switchboard/platform';
import { startMigratedDatabase } from '@switchboard/testing';
import type { DataSource } from 'typeorm';
import type { EmailConfig } from '../config/email.config';
import { emailDatabase } from '../database/email.database';
import { SuppressionsRepository } from './suppressions.repository';
import { SuppressionsService } from './suppressions.service';

const ORIGINS: Record<EmailSuppressionReason, EmailSuppressionOrigin> = {
  hard_bounce: 'bounce_event',
  complaint: 'complaint_event',
  unsubscribe: 'unsubscribe_event',
  manual: 'api_key',
};

/** Whether mail of each category reaches an address with a suppression for each reason. */
const POLICY: Array<[EmailSuppressionReason, EmailCategory, boolean]> = [
  ['hard_bounce', 'marketing', true],
  ['hard_bounce', 'transactional', true],
  ['complaint', 'marketing', true],
  ['complaint', 'transactional', false],
  ['unsubscribe', 'marketing', true],
  ['unsubscribe', 'transactional', false],
  ['manual', 'marketing', true],
  ['manual', 'transactional', true],
];

/** The preference projection is read too (ADR 14). */
const CHECKS = { preferences: true };

describe(SuppressionsService.name, () => {
  let database: MigratedDatabase;
  let dataSource: DataSource;
  let repository: SuppressionsRepository;
  let service: SuppressionsService;
  let workspace = 0;
  const newWorkspace = () => `ws_test${String(++workspace).padStart(22, '0')}`;
  const context = (
    workspaceId: string,
    kind: 'api_key' | 'session' = 'api_key',
  ): RequestContext => ({
    requestId: 'req_test',
    workspaceId,
    caller: { kind, role: 'write' },
  });
  const suppress = (workspaceId: string, email: string, reason: EmailSuppressionReason) =>
    repository.insertFromEvents(dataSource, workspaceId, reason, ORIGINS[reason], [
      { id: newId('sup'), email, sourceEmailId: null, sourceRecipientId: null },
    ]);

  beforeAll(async () => {
    database = await startMigratedDatabase((url) =>
      emailDatabase({
        DATABASE_URL: url,
        DATABASE_POOL_SIZE: 2,
      } as EmailConfig),
    );
    dataSource = database.dataSource;
    repository = new SuppressionsRepository(dataSource);
    const box = new SealedBox('an encryption key for the suppression tests');
    service = new SuppressionsService(
      repository,
      new IdempotentWrites(dataSource, 'email', box),
      new CursorCodec('cursor:an encryption key for the suppression tests', 3_600_000),
    );
  });

  afterAll(async () => {
    await database?.stop();
  });

  describe('suppressedAmong', () => {
    it.each(POLICY)('a %s suppression blocks %s mail: %s', async (reason, category, blocked) => {
      const ws = newWorkspace();
      await suppress(ws, 'ada@example.com', reason);
      const found = await service.suppressedAmong(
        dataSource,
        ws,
        ['ada@example.com', 'bob@example.com'],
        category,
        CHECKS,
      );
      expect([...found]).toEqual(blocked ? ['ada@example.com'] : []);
    });

    it('answers every address and category of a mixed list in one query', async () => {
      const ws = newWorkspace();
      await suppress(ws, 'bounced@example.com', 'hard_bounce');
      await suppress(ws, 'complained@example.com', 'complaint');
      await suppress(ws, 'unsubscribed@example.com', 'unsubscribe');
      await suppress(ws, 'manual@example.com', 'manual');
      // Two reasons on one address: the stricter one decides.
      await suppress(ws, 'both@example.com', 'unsubscribe');
      await suppress(ws, 'both@example.com', 'hard_bounce');
      const emails = [
        'bounced@example.com',
        'complained@example.com',
        'unsubscribed@example.com',
        'manual@example.com',
        'both@example.com',
        'clean@example.com',
      ];
      const queries: string[] = [];
      const counting = {
        query: (sql: string, params?: unknown[]) => {
          queries.push(sql);
          return dataSource.query(sql, params);
        },
      };
      expect(
        [...(await service.suppressedAmong(counting, ws, emails, 'marketing', CHECKS))].sort(),
      ).toEqual(emails.filter((email) => email !== 'clean@example.com').sort());
      expect(
        [...(await service.suppressedAmong(counting, ws, emails, 'transactional', CHECKS))].sort(),
      ).toEqual(['both@example.com', 'bounced@example.com', 'manual@example.com']);
      expect(queries).toHaveLength(2);
    });

    it('reads revoked preferences in the same query: all blocks every category, non_transactional marketing only', async () => {
      const ws = newWorkspace();
      await suppress(ws, 'manual@example.com', 'manual');
      await dataSource.query(
        `INSERT INTO email.preference_states
           (workspace_id, channel, handle, sender_scope, status, coverage, effective_at, transition_id)
         VALUES ($1, 'email', 'all@example.com', '', 'revoked', 'all', now(), 'prt_1'),
                ($1, 'email', 'some@example.com', '', 'revoked', 'non_transactional', now(), 'prt_2'),
                ($1, 'email', 'granted@example.com', '', 'granted', 'all', now(), 'prt_3'),
                ($1, 'email', 'deleted@example.com', '', 'deleted', 'all', now(), 'prt_4'),
                ($1, 'sms', 'sms@example.com', '', 'revoked', 'all', now(), 'prt_5')`,
        [ws],
      );
      const emails = [
        'manual@example.com',
        'All@example.com',
        'some@example.com',
        'granted@example.com',
        'deleted@example.com',
        'sms@example.com',
      ];
      const queries: string[] = [];
      const counting = {
        query: (sql: string, params?: unknown[]) => {
          queries.push(sql);
          return dataSource.query(sql, params);
        },
      };
      const marketing = await service.suppressedAmong(counting, ws, emails, 'marketing', CHECKS);
      const transactional = await service.suppressedAmong(
        counting,
        ws,
        emails,
        'transactional',
        CHECKS,
      );
      expect([...marketing].sort()).toEqual([
        'All@example.com',
        'manual@example.com',
        'some@example.com',
      ]);
      expect([...transactional].sort()).toEqual(['All@example.com', 'manual@example.com']);
      expect(queries).toHaveLength(2);
      const without = await service.suppressedAmong(dataSource, ws, emails, 'marketing', {
        preferences: false,
      });
      expect([...without]).toEqual(['manual@example.com']);
    });

    it('compares addresses lowercased and returns them as the caller gave them', async () => {
      const ws = newWorkspace();
      await suppress(ws, 'ada@example.com', 'manual');
      const found = await service.suppressedAmong(
        dataSource,
        ws,
        ['Ada@Example.COM', 'bob@example.com'],
        'transactional',
        CHECKS,
      );
      expect([...found]).toEqual(['Ada@Example.COM']);
    });

    it("never sees another workspace's suppressions", async () => {
      const ws = newWorkspace();
      await suppress(ws, 'ada@example.com', 'manual');
      const other = await service.suppressedAmong(
        dataSource,
        newWorkspace(),
        ['ada@example.com'],
        'marketing',
        CHECKS,
      );
      expect(other.size).toBe(0);
    });

    it('answers an empty list without a query', async () => {
      const runner = { query: jest.fn() };
      await expect(
        service.suppressedAmong(runner, newWorkspace(), [], 'marketing', CHECKS),
      ).resolves.toEqual(new Set());
      expect(runner.query).not.toHaveBeenCalled();
    });
  });

  describe('recordBounces', () => {
    it('suppresses every bounced address for all mail in one statement, inside the caller transaction', async () => {
      const ws = newWorkspace();
      const queries: string[] = [];
      await dataSource.transaction(async (manager) => {
        const counting = {
          query: (sql: string, params?: unknown[]) => {
            queries.push(sql);
            return manager.query(sql, params);
          },
        };
        const created = await service.recordBounces(counting, ws, [
          { email: 'Ada@Example.com', sourceEmailId: 'em_1', sourceRecipientId: 'er_1' },
          { email: 'bob@example.com', sourceEmailId: 'em_1', sourceRecipientId: 'er_2' },
          { email: 'ada@example.com', sourceEmailId: 'em_1', sourceRecipientId: 'er_3' },
        ]);
        expect(created).toHaveLength(2);
        // Visible to the same transaction's policy check before it commits.
        const blocked = await service.suppressedAmong(
          manager,
          ws,
          ['ada@example.com', 'bob@example.com'],
          'transactional',
          CHECKS,
        );
        expect(blocked.size).toBe(2);
      });
      expect(queries).toHaveLength(1);
      const { data } = await service.list(context(ws), { limit: 10 });
      expect(data.map((s) => s.email).sort()).toEqual(['ada@example.com', 'bob@example.com']);
      expect(data.find((s) => s.email === 'ada@example.com')).toMatchObject({
        reason: 'hard_bounce',
        origin: 'bounce_event',
        applies_to: 'all',
        scope: { type: 'workspace', id: ws },
        source_email_id: 'em_1',
        source_recipient_id: 'er_1',
      });
    });

    it('keeps the first record of an address that bounced before, and adds none for an empty list', async () => {
      const ws = newWorkspace();
      await service.recordBounces(dataSource, ws, [
        { email: 'ada@example.com', sourceEmailId: 'em_1', sourceRecipientId: 'er_1' },
      ]);
      const again = await service.recordBounces(dataSource, ws, [
        { email: 'ada@example.com', sourceEmailId: 'em_2', sourceRecipientId: 'er_2' },
      ]);
      expect(again).toEqual([]);
      await expect(service.recordBounces(dataSource, ws, [])).resolves.toEqual([]);
      const { data } = await service.list(context(ws), { limit: 10 });
      expect(data).toHaveLength(1);
      expect(data[0].source_email_id).toBe('em_1');
    });

    it('adds a hard bounce beside an unsubscribe of the same address', async () => {
      const ws = newWorkspace();
      await suppress(ws, 'ada@example.com', 'unsubscribe');
      await service.recordBounces(dataSource, ws, [
        { email: 'ada@example.com', sourceEmailId: 'em_1', sourceRecipientId: 'er_1' },
      ]);
      const { data } = await service.list(context(ws), { limit: 10 });
      expect(data.map((s) => s.reason).sort()).toEqual(['hard_bounce', 'unsubscribe']);
    });
  });

  describe('create', () => {
    it('adds a manual suppression once and answers the same record afterwards', async () => {
      const ws = newWorkspace();
      const first = await service.create(context(ws), { email: 'ada@example.com' });
      const second = await service.create(context(ws, 'session'), { email: 'ada@example.com' });
      expect(first).toMatchObject({
        created: true,
        suppression: { reason: 'manual', origin: 'api_key', applies_to: 'all' },
      });
      expect(second).toEqual({ created: false, suppression: first.suppression });
    });

    it('records origin user for a dashboard session, and a manual record beside a bounce', async () => {
      const ws = newWorkspace();
      await service.recordBounces(dataSource, ws, [
        { email: 'ada@example.com', sourceEmailId: 'em_1', sourceRecipientId: 'er_1' },
      ]);
      const added = await service.create(context(ws, 'session'), { email: 'ada@example.com' });
      expect(added).toMatchObject({ created: true, suppression: { origin: 'user' } });
    });

    it('lets one of four concurrent adds of an address create it', async () => {
      const ws = newWorkspace();
      const replies = await Promise.all(
        Array.from({ length: 4 }, () => service.create(context(ws), { email: 'ada@example.com' })),
      );
      expect(replies.filter((reply) => reply.created)).toHaveLength(1);
      expect(new Set(replies.map((reply) => reply.suppression.id)).size).toBe(1);
    });
  });

  describe('list', () => {
    it('filters by a prefix whose LIKE characters are literal', async () => {
      const ws = newWorkspace();
      await suppress(ws, 'a_b@example.com', 'manual');
      await suppress(ws, 'axb@example.com', 'manual');
      await suppress(ws, 'a%c@example.com', 'manual');
      const underscore = await service.list(context(ws), { limit: 10, email: 'A_' });
      expect(underscore.data.map((s) => s.email)).toEqual(['a_b@example.com']);
      const percent = await service.list(context(ws), { limit: 10, email: 'a%' });
      expect(percent.data.map((s) => s.email)).toEqual(['a%c@example.com']);
    });
  });
});
