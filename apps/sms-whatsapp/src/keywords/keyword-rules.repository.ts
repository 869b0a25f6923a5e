import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { poolRunner, rowsOf } from '@switchboard/persistence';
import type { SqlRunner } from '@switchboard/persistence';
import { DataSource } from 'typeorm';
import type { KeywordRuleRow } from './keyword-rule-view';

const COLUMNS =
  'id, workspace_id, operation, country, language, number, keywords, reply, reply_disabled_at, created_at, updated_at';
const TABLE = 'sms_whatsapp.sms_keyword_rules';

/** One of the workspace's numbers, as a keyword rule may name it. */
export interface HeldNumber {
  number: string;
  country_code: string;
  capabilities: string[];
}

export type NewKeywordRule = Omit<
  KeywordRuleRow,
  'created_at' | 'updated_at' | 'reply_disabled_at'
> & {
  selfManaged: boolean;
};

/** Named queries over sms_whatsapp.sms_keyword_rules; every one is scoped by workspace. */
@Injectable()
export class KeywordRulesRepository {
  private readonly reads: SqlRunner;

  constructor(@InjectDataSource('sms_whatsapp') dataSource: DataSource) {
    this.reads = poolRunner(dataSource);
  }

  /** Every rule of the workspace (a small set: one per operation, country, language, number). */
  async list(workspaceId: string, runner: SqlRunner = this.reads): Promise<KeywordRuleRow[]> {
    return rowsOf<KeywordRuleRow>(
      await runner.query(`SELECT ${COLUMNS} FROM ${TABLE} WHERE workspace_id = $1`, [workspaceId]),
    );
  }

  /**
   * The workspace's rules that can apply to a message on `number`, held in `arrivalCountry`:
   * confined to that number there, for its country or the sender's, worldwide.
   */
  async forMessage(
    runner: SqlRunner,
    workspaceId: string,
    at: { number: string; arrivalCountry: string; senderCountry: string | null },
  ): Promise<KeywordRuleRow[]> {
    return rowsOf<KeywordRuleRow>(
      await runner.query(
        `SELECT ${COLUMNS} FROM ${TABLE}
         WHERE workspace_id = $1
           AND ((number = $2 AND (country IS NULL OR country = $3))
             OR (number IS NULL AND (country IS NULL OR country = $3 OR country = $4)))`,
        [workspaceId, at.number, at.arrivalCountry, at.senderCountry],
      ),
    );
  }

  async find(
    workspaceId: string,
    id: string,
    runner: SqlRunner = this.reads,
  ): Promise<KeywordRuleRow | undefined> {
    const rows = rowsOf<KeywordRuleRow>(
      await runner.query(`SELECT ${COLUMNS} FROM ${TABLE} WHERE workspace_id = $1 AND id = $2`, [
        workspaceId,
        id,
      ]),
    );
    return rows[0];
  }

  /** Serialises the workspace's rule writes, so two of them cannot bind one keyword twice. */
  async lockWorkspace(runner: SqlRunner, workspaceId: string): Promise<void> {
    await runner.query(`SELECT pg_advisory_xact_lock(hashtextextended($1, 0))`, [
      `sms_keyword_rules:${workspaceId}`,
    ]);
  }

  async insert(runner: SqlRunner, rule: NewKeywordRule): Promise<KeywordRuleRow> {
    const rows = rowsOf<KeywordRuleRow>(
      await runner.query(
        `INSERT INTO ${TABLE} (id, workspace_id, operation, country, language, number, keywords, reply, reply_disabled_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, CASE WHEN $9::boolean THEN clock_timestamp() END)
         RETURNING ${COLUMNS}`,
        [
          rule.id,
          rule.workspace_id,
          rule.operation,
          rule.country,
          rule.language,
          rule.number,
          rule.keywords,
          rule.reply,
          rule.selfManaged,
        ],
      ),
    );
    return rows[0];
  }

  /** Sets what is given: `keywords`, and the reply (with `selfManaged` switching it off). */
  async update(
    runner: SqlRunner,
    workspaceId: string,
    id: string,
    change: { keywords?: string[]; reply?: { text: string | null; selfManaged: boolean } },
  ): Promise<KeywordRuleRow | undefined> {
    const rows = rowsOf<KeywordRuleRow>(
      await runner.query(
        `UPDATE ${TABLE} SET
           keywords = COALESCE($3::text[], keywords),
           reply = CASE WHEN $4::boolean THEN $5 ELSE reply END,
           reply_disabled_at = CASE
             WHEN NOT $4::boolean THEN reply_disabled_at
             WHEN $6::boolean THEN COALESCE(reply_disabled_at, clock_timestamp())
           END,
           updated_at = clock_timestamp()
         WHERE workspace_id = $1 AND id = $2
         RETURNING ${COLUMNS}`,
        [
          workspaceId,
          id,
          change.keywords ?? null,
          change.reply !== undefined,
          change.reply?.text ?? null,
          change.reply?.selfManaged ?? false,
        ],
      ),
    );
    return rows[0];
  }

  async delete(runner: SqlRunner, workspaceId: string, id: string): Promise<boolean> {
    const rows = rowsOf(
      await runner.query(`DELETE FROM ${TABLE} WHERE workspace_id = $1 AND id = $2 RETURNING id`, [
        workspaceId,
        id,
      ]),
    );
    return rows.length > 0;
  }

  /**
   * The number if the workspace holds it (allocated, not released), with its country: in
   * `country` when given (a short code may be held in several), else the earliest held.
   */
  async heldNumber(
    workspaceId: string,
    number: string,
    country: string | null,
    runner: SqlRunner = this.reads,
  ): Promise<HeldNumber | undefined> {
    const rows = rowsOf<HeldNumber>(
      await runner.query(
        `SELECT n.number, n.country_code, n.capabilities
         FROM sms_whatsapp.number_allocations a
         JOIN sms_whatsapp.numbers n ON n.number = a.number AND n.country_code = a.country_code
         WHERE a.workspace_id = $1 AND a.number = $2 AND a.released_at IS NULL
           AND ($3::text IS NULL OR a.country_code = $3)
         ORDER BY a.allocated_at LIMIT 1`,
        [workspaceId, number, country],
      ),
    );
    return rows[0];
  }
}
