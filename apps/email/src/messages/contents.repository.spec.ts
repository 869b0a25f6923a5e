import type { MigratedDatabase } from '@switchboard/testing';
import { startMigratedDatabase } from '@switchboard/testing';
import type { DataSource } from 'typeorm';
import type { EmailConfig } from '../config/email.config';
import { emailDatabase } from '../database/email.database';
import { ContentsRepository } from './contents.repository';
import { ContentExpiry } from './housekeeping';

const WORKSPACE = 'ws_contents_test';

describe(ContentsRepository.name, () => {
  let database: MigratedDatabase;
  let dataSource: DataSource;
  let contents: ContentsRepository;
  let batch = 0;

  /**
   * `count` messages with stored content (html, text, one attachment) whose retention ends at
   * `expiresIn` seconds from now (null: none set); answers their ids.
   */
  async function stored(count: number, expiresIn: number | null): Promise<string[]> {
    const prefix = `em_contents_${++batch}_`;
    await dataSource.query(
      `WITH m AS (
         INSERT INTO email.messages (id, workspace_id, from_email, sender_domain, onboarding,
           to_addresses, cc_addresses, bcc_addresses, reply_to, subject, category, status, tags,
           headers, attachments, track_opens, track_clicks, created_at)
         SELECT $1::text || n, $2, 'a@sender.test', 'sender.test', false, '[]', '[]', '[]', '[]', 'Hi',
           'transactional', 'delivered', '[]', '{}', '[]', false, false, now()
         FROM generate_series(1, $3::int) AS n
       )
       INSERT INTO email.contents (message_id, workspace_id, html, text, attachments,
         generated_at, expires_at)
       SELECT $1::text || n, $2, '<p>Hi</p>', 'Hi', '[{"filename":"a.txt","content":"QQ=="}]',
         now(), now() + make_interval(secs => $4::float8)
       FROM generate_series(1, $3::int) AS n`,
      [prefix, WORKSPACE, count, expiresIn],
    );
    return Array.from({ length: count }, (_, n) => `${prefix}${n + 1}`);
  }

  /** The contents of `ids`, in id order. */
  function contentsOf(ids: string[]) {
    return dataSource.query<
      Array<{ html: string | null; text: string | null; attachments: []; purged: boolean }>
    >(
      `SELECT message_id, html, text, attachments, purged FROM email.contents
       WHERE message_id = ANY($1) ORDER BY message_id`,
      [ids],
    );
  }

  const dropped = { html: null, text: null, attachments: [], purged: true };

  beforeAll(async () => {
    database = await startMigratedDatabase((url) =>
      emailDatabase({
        DATABASE_URL: url,
        DATABASE_POOL_SIZE: 2,
        ENCRYPTION_KEY: 'an encryption key for the contents tests',
      } as EmailConfig),
    );
    dataSource = database.dataSource;
    contents = new ContentsRepository(dataSource);
  });

  afterAll(async () => {
    await database?.stop();
  });

  it('drops the bodies and attachments of the given messages only, and counts them', async () => {
    const [first, second, kept] = await stored(3, 3600);
    expect(await contents.purge([first, second])).toBe(2);
    const [a, b, c] = await contentsOf([first, second, kept]);
    expect(a).toMatchObject(dropped);
    expect(b).toMatchObject(dropped);
    expect(c).toMatchObject({ html: '<p>Hi</p>', text: 'Hi', purged: false });
    expect(await contents.purge([])).toBe(0);
  });

  it("drops inside the caller's transaction, undone with it", async () => {
    const [id] = await stored(1, 3600);
    await expect(
      dataSource.transaction(async (manager) => {
        expect(await contents.purge([id], manager)).toBe(1);
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    expect((await contentsOf([id]))[0]).toMatchObject({ html: '<p>Hi</p>', purged: false });
    await dataSource.transaction((manager) => contents.purge([id], manager));
    expect((await contentsOf([id]))[0]).toMatchObject(dropped);
  });

  describe(ContentExpiry.name, () => {
    it('drops every content past its retention, a thousand at a time, and nothing else', async () => {
      // Earlier tests' contents are not expired; none is left expired from before.
      const expired = await stored(1002, -60);
      const current = await stored(2, 3600);
      const pending = await stored(1, null);
      expect(await contents.expired(1000)).toHaveLength(1000);
      expect(await new ContentExpiry(contents).run()).toBe(1002);
      expect((await contentsOf(expired)).every((row) => row.purged && row.html === null)).toBe(
        true,
      );
      for (const row of await contentsOf([...current, ...pending]))
        expect(row).toMatchObject({ html: '<p>Hi</p>', purged: false });
      expect(await contents.expired(1000)).toEqual([]);
      expect(await new ContentExpiry(contents).run()).toBe(0);
    });
  });
});
