import { AppError } from '@switchboard/platform';
import { startTestPostgres } from '@switchboard/testing';
import { DataSource } from 'typeorm';
import { CursorCodec } from './cursor-codec';
import { paginate } from './keyset-paginator';
import type { SqlRunner } from './keyset-paginator';
import { tokenPage } from './page';
import type { KeysetList, Page, PageRequest } from './page';

interface AppRow {
  id: string;
  name: string;
  label: string | null;
  priority: number;
  created_at: Date;
}

const ROWS = 1000;

describe('paginate', () => {
  let postgres: { stop(): Promise<void> };
  let db: DataSource;
  const codec = new CursorCodec('keyset-spec-secret', 3_600_000);

  /** The realtime apps list of one workspace, optionally filtered by a name substring. */
  function appsList(workspaceId: string, name?: string): KeysetList {
    const params: unknown[] = [workspaceId];
    let sql = 'workspace_id = $1';
    if (name !== undefined) {
      params.push(name);
      sql += ` AND strpos(name, $${params.length}) > 0`;
    }
    return {
      from: 'realtime.apps',
      select: 'id, name, label, priority, created_at',
      where: { sql, params },
      filters: { workspace_id: workspaceId, name },
      sorts: {
        created_at: { column: 'created_at', type: 'timestamptz' },
        name: { column: 'name', type: 'text' },
        label: { column: 'label', type: 'text', nullable: true },
        priority: { column: 'priority', type: 'numeric' },
      },
      defaultSort: 'created_at',
      defaultOrder: 'desc',
      idColumn: 'id',
    };
  }

  /** A runner that counts the statements each page costs. */
  function counting(): SqlRunner & { statements: string[] } {
    const statements: string[] = [];
    return {
      statements,
      query: (sql, params) => {
        statements.push(sql);
        return db.query(sql, params);
      },
    };
  }

  /** Every id of the list in the order Postgres sorts it, as the oracle. */
  async function expectedIds(
    workspaceId: string,
    column: string,
    order: 'asc' | 'desc',
    name?: string,
  ) {
    const list = appsList(workspaceId, name);
    const rows: { id: string }[] = await db.query(
      `SELECT id FROM realtime.apps WHERE ${list.where.sql} ORDER BY ${column} ${order}, id ${order}`,
      list.where.params,
    );
    return rows.map((row) => row.id);
  }

  async function page(
    list: KeysetList,
    request: PageRequest,
    runner: SqlRunner = db,
  ): Promise<Page<AppRow>> {
    return paginate<AppRow>(runner, list, request, codec);
  }

  /** Follows next_cursor from the first page to the last; checks the cursors and query count of each page. */
  async function walkForward(list: KeysetList, request: PageRequest) {
    const pages: Page<AppRow>[] = [];
    let cursor: string | undefined;
    do {
      const runner = counting();
      const current = await page(list, { ...request, starting_after: cursor }, runner);
      expect(runner.statements.length).toBeLessThanOrEqual(cursor ? 2 : 1);
      expect(current.data.length).toBeLessThanOrEqual(request.limit);
      if (cursor) expect(current.prev_cursor).not.toBeNull();
      else expect(current.prev_cursor).toBeNull();
      expect(current.refresh_cursor === null).toBe(current.data.length === 0);
      pages.push(current);
      cursor = current.next_cursor ?? undefined;
    } while (cursor);
    return pages;
  }

  /** From the last page, follows prev_cursor back to the first; returns the pages in visiting order. */
  async function walkBackward(list: KeysetList, request: PageRequest, last: Page<AppRow>) {
    const pages = [last];
    let cursor = last.prev_cursor;
    while (cursor) {
      const runner = counting();
      const current = await page(list, { ...request, ending_before: cursor }, runner);
      expect(runner.statements.length).toBeLessThanOrEqual(2);
      expect(current.next_cursor).not.toBeNull();
      pages.push(current);
      cursor = current.prev_cursor;
    }
    return pages;
  }

  const ids = (pages: Page<AppRow>[]) => pages.flatMap((each) => each.data.map((row) => row.id));

  function rejection(promise: Promise<unknown>): Promise<AppError> {
    return promise.then(
      () => {
        throw new Error('expected a rejection');
      },
      (err: unknown) => {
        expect(err).toBeInstanceOf(AppError);
        return err as AppError;
      },
    );
  }

  beforeAll(async () => {
    const running = await startTestPostgres();
    postgres = running;
    db = new DataSource({ type: 'postgres', url: running.url });
    await db.initialize();
    await db.query('CREATE SCHEMA realtime');
    await db.query(`CREATE TABLE realtime.apps (
      id text PRIMARY KEY,
      workspace_id text NOT NULL,
      name text NOT NULL,
      label text,
      priority integer NOT NULL,
      created_at timestamptz NOT NULL
    )`);
    // Groups of 7 rows share a timestamp and neighbouring groups differ by one microsecond, so a
    // cursor that kept only milliseconds would skip or repeat rows. Ids are hashes: their order is
    // unrelated to insertion or time.
    await db.query(
      `INSERT INTO realtime.apps
       SELECT md5(i::text), 'ws_1', 'app-' || (i % 37) || CASE WHEN i % 5 = 0 THEN '-bot' ELSE '' END,
              CASE WHEN i % 4 = 0 THEN NULL ELSE 'label-' || (i % 9) END, i % 11,
              timestamptz '2024-01-01 00:00:00.000001+00' + (i / 7) * interval '1 microsecond'
       FROM generate_series(1, $1) AS i`,
      [ROWS],
    );
    await db.query(
      `INSERT INTO realtime.apps SELECT 'other_' || i, 'ws_2', 'app-' || i, NULL, 0, now() FROM generate_series(1, 30) AS i`,
    );
  });

  afterAll(async () => {
    await db?.destroy();
    await postgres?.stop();
  });

  it.each([
    ['created_at', 'desc', 7],
    ['created_at', 'asc', 7],
    ['name', 'asc', 100],
    ['name', 'desc', 33],
    ['priority', 'asc', 50],
    ['label', 'asc', 13],
    ['label', 'desc', 13],
  ] as const)(
    'pages forward through 1,000 rows by %s %s (limit %d), visiting each once in order',
    async (sort, order, limit) => {
      const pages = await walkForward(appsList('ws_1'), { limit, sort, order });
      expect(ids(pages)).toEqual(await expectedIds('ws_1', sort, order));
      expect(pages.length).toBe(Math.ceil(ROWS / limit));
      expect(pages.at(-1)?.next_cursor).toBeNull();
    },
  );

  it.each([
    ['created_at', 'desc', 7],
    ['created_at', 'asc', 9],
    ['name', 'asc', 100],
    ['label', 'desc', 13],
    ['label', 'asc', 13],
  ] as const)(
    'pages backward from the last page by %s %s, visiting each once',
    async (sort, order, limit) => {
      const list = appsList('ws_1');
      const forward = await walkForward(list, { limit, sort, order });
      const backward = await walkBackward(list, { limit, sort, order }, forward.at(-1)!);
      expect(ids([...backward].reverse())).toEqual(await expectedIds('ws_1', sort, order));
      // Walking back lands on the same pages as walking forward, the first one included.
      expect(backward.map((each) => each.data.length).reverse()).toEqual(
        forward.map((each) => each.data.length),
      );
      expect(backward.at(-1)?.prev_cursor).toBeNull();
    },
  );

  it('uses the default sort, newest first, and returns rows without helper columns', async () => {
    const first = await page(appsList('ws_1'), { limit: 25 });
    expect(first.data.map((row) => row.id)).toEqual(
      (await expectedIds('ws_1', 'created_at', 'desc')).slice(0, 25),
    );
    expect(Object.keys(first.data[0]).sort()).toEqual([
      'created_at',
      'id',
      'label',
      'name',
      'priority',
    ]);
    expect(first.data[0].created_at).toBeInstanceOf(Date);
    expect(first.total).toBeUndefined();
    expect(first).toMatchObject({
      prev_cursor: null,
      next_cursor: expect.any(String),
      refresh_cursor: expect.any(String),
    });
  });

  it('returns with ending_before the page just before the cursor', async () => {
    const list = appsList('ws_1');
    const first = await page(list, { limit: 20 });
    const second = await page(list, { limit: 20, starting_after: first.next_cursor! });
    const third = await page(list, { limit: 20, starting_after: second.next_cursor! });
    const back = await page(list, { limit: 20, ending_before: third.prev_cursor! });
    expect(back.data).toEqual(second.data);
    expect(back.prev_cursor).not.toBeNull();
    expect(back.next_cursor).not.toBeNull();
    const backToFirst = await page(list, { limit: 20, ending_before: back.prev_cursor! });
    expect(backToFirst.data).toEqual(first.data);
    expect(backToFirst.prev_cursor).toBeNull();
  });

  it('returns the rows between starting_after and ending_before, as the SDK iterator asks', async () => {
    const list = appsList('ws_1');
    const first = await page(list, { limit: 20 });
    const second = await page(list, { limit: 20, starting_after: first.next_cursor! });
    const third = await page(list, { limit: 20, starting_after: second.next_cursor! });
    const between = await page(list, {
      limit: 50,
      starting_after: first.next_cursor!,
      ending_before: third.prev_cursor!,
    });
    expect(between.data).toEqual(second.data);
    expect(between.next_cursor).toBeNull();
    // Page by page, as `for await` over a list started with ending_before walks it.
    const halves = [];
    let cursor: string | null = first.next_cursor;
    while (cursor) {
      const part: Page<unknown> = await page(list, {
        limit: 7,
        starting_after: cursor,
        ending_before: third.prev_cursor!,
      });
      halves.push(...part.data);
      cursor = part.next_cursor;
    }
    expect(halves).toEqual(second.data);
  });

  it('gives a refresh cursor that later returns only the rows created since', async () => {
    await db.query(
      `INSERT INTO realtime.apps SELECT 'fresh_old_' || i, 'ws_fresh', 'old-' || i, NULL, 0, now() - interval '1 hour' FROM generate_series(1, 10) AS i`,
    );
    const list = appsList('ws_fresh');
    const first = await page(list, { limit: 5 });
    expect(first.data).toHaveLength(5);
    const nothingYet = await page(list, { limit: 5, ending_before: first.refresh_cursor! });
    expect(nothingYet).toMatchObject({ data: [], prev_cursor: null, refresh_cursor: null });
    expect(nothingYet.next_cursor).not.toBeNull();

    await db.query(
      `INSERT INTO realtime.apps VALUES ('fresh_new_1', 'ws_fresh', 'new-1', NULL, 0, now() + interval '1 second'),
        ('fresh_new_2', 'ws_fresh', 'new-2', NULL, 0, now() + interval '2 second'),
        ('fresh_new_3', 'ws_fresh', 'new-3', NULL, 0, now() + interval '3 second'),
        ('other_new', 'ws_2', 'new', NULL, 0, now() + interval '3 second')`,
    );
    const since = await page(list, { limit: 5, ending_before: first.refresh_cursor! });
    expect(since.data.map((row) => row.id)).toEqual(['fresh_new_3', 'fresh_new_2', 'fresh_new_1']);
    expect(since.prev_cursor).toBeNull();
    expect(since.next_cursor).not.toBeNull();
    // With a smaller page the oldest new rows come first and prev_cursor leads to the newer ones.
    const oldestNew = await page(list, { limit: 2, ending_before: first.refresh_cursor! });
    expect(oldestNew.data.map((row) => row.id)).toEqual(['fresh_new_2', 'fresh_new_1']);
    const newest = await page(list, { limit: 2, ending_before: oldestNew.prev_cursor! });
    expect(newest.data.map((row) => row.id)).toEqual(['fresh_new_3']);
    expect(newest.prev_cursor).toBeNull();
    // Following next_cursor from the refreshed page continues into the rows seen before.
    const onward = await page(list, { limit: 5, starting_after: since.next_cursor! });
    expect(onward.data).toEqual(first.data);
  });

  it('gives an empty first page a refresh cursor that returns the rows created later', async () => {
    const list = appsList('ws_empty');
    const empty = await page(list, { limit: 10, include_total: true });
    expect(empty).toMatchObject({ data: [], next_cursor: null, prev_cursor: null, total: 0 });
    expect(empty.refresh_cursor).not.toBeNull();
    await db.query(
      `INSERT INTO realtime.apps VALUES ('empty_1', 'ws_empty', 'a', NULL, 0, now()), ('empty_2', 'ws_empty', 'b', NULL, 0, now() + interval '1 second')`,
    );
    const since = await page(list, { limit: 10, ending_before: empty.refresh_cursor! });
    expect(since.data.map((row) => row.id)).toEqual(['empty_2', 'empty_1']);
    expect(since).toMatchObject({ next_cursor: null, prev_cursor: null });
  });

  it('counts the rows matching the filters with include_total, ignoring the cursor, in one more query', async () => {
    const list = appsList('ws_1');
    const runner = counting();
    const first = await page(list, { limit: 10, include_total: true }, runner);
    expect(first.total).toBe(ROWS);
    expect(runner.statements).toHaveLength(2);
    const second = await page(list, {
      limit: 10,
      include_total: true,
      starting_after: first.next_cursor!,
    });
    expect(second.total).toBe(ROWS);
    const bots = await page(appsList('ws_1', '-bot'), { limit: 10, include_total: true });
    expect(bots.total).toBe(ROWS / 5);
  });

  it('pages through a name-filtered list and binds its cursors to the filter', async () => {
    const bots = appsList('ws_1', '-bot');
    const pages = await walkForward(bots, { limit: 30, sort: 'name', order: 'asc' });
    expect(ids(pages)).toEqual(await expectedIds('ws_1', 'name', 'asc', '-bot'));
    const cursor = pages[0].next_cursor!;
    const error = await rejection(
      page(appsList('ws_1', '-xyz'), {
        limit: 30,
        sort: 'name',
        order: 'asc',
        starting_after: cursor,
      }),
    );
    expect(error.code).toBe('E01012');
    const otherWorkspace = await rejection(
      page(appsList('ws_2', '-bot'), {
        limit: 30,
        sort: 'name',
        order: 'asc',
        starting_after: cursor,
      }),
    );
    expect(otherWorkspace.code).toBe('E01012');
  });

  it('rejects a cursor made under another sort or order with E01012', async () => {
    const list = appsList('ws_1');
    const first = await page(list, { limit: 10 });
    for (const request of [
      { sort: 'name' },
      { order: 'asc' as const },
      { sort: 'created_at', order: 'asc' as const },
    ]) {
      const error = await rejection(
        page(list, { limit: 10, ...request, starting_after: first.next_cursor! }),
      );
      expect(error.code).toBe('E01012');
    }
    expect((await rejection(page(list, { limit: 10, ending_before: 'garbage' }))).code).toBe(
      'E01012',
    );
  });

  it('rejects an unknown sort with a validation error naming sort', async () => {
    const error = await rejection(page(appsList('ws_1'), { limit: 10, sort: 'workspace_id' }));
    expect(error.code).toBe('E01001');
    expect(error.details).toEqual([{ param: 'sort', message: expect.any(String) }]);
    expect(
      (await rejection(page(appsList('ws_1'), { limit: 10, sort: 'constructor' }))).details?.[0]
        .param,
    ).toBe('sort');
  });

  it('answers an empty page for a starting_after that lies past its ending_before', async () => {
    const first = await page(appsList('ws_1'), { limit: 10 });
    const none = await page(appsList('ws_1'), {
      limit: 10,
      starting_after: first.next_cursor!,
      ending_before: first.refresh_cursor!,
    });
    expect(none.data).toEqual([]);
    expect(none.next_cursor).toBeNull();
  });

  it.each([0, 101, 2.5])('rejects limit %p with a validation error naming limit', async (limit) => {
    const error = await rejection(page(appsList('ws_1'), { limit }));
    expect(error.details?.map((detail) => detail.param)).toEqual(['limit']);
  });

  it('maps a page to the workspace API envelope', async () => {
    const first = await page(appsList('ws_1'), { limit: 3 });
    expect(tokenPage(first)).toEqual({ results: first.data, nextPageToken: first.next_cursor });
    const next = await page(appsList('ws_1'), {
      limit: 3,
      starting_after: tokenPage(first).nextPageToken!,
    });
    expect(next.data[0].id).toBe((await expectedIds('ws_1', 'created_at', 'desc'))[3]);
  });
});
