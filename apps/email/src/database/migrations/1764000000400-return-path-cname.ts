import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The return path becomes the CNAME the SDK describes (issue 16): domains registered before kept
 * a TXT record holding an SPF policy at the return-path host. Each such active or staged record
 * becomes a CNAME to `target` (the deployment's return-path host), unchecked: the owner has to
 * replace the TXT with the CNAME, and the next verification looks the CNAME up. Deprecated TXT
 * return paths, already safe to remove, are dropped. Domain statuses stay as they are: a verified
 * domain keeps sending until a check finds its CNAME missing.
 *
 * The target comes from the configuration, so the migration is built from it. It is read only
 * when there is a record to convert: a new database needs none, and a configuration without one
 * fails the migration with one line rather than the process at import.
 */
export function returnPathCnameMigration(target: () => string): new () => MigrationInterface {
  return class ReturnPathCname1764000000400 implements MigrationInterface {
    name = 'ReturnPathCname1764000000400';

    async up(queryRunner: QueryRunner): Promise<void> {
      const legacy = (await queryRunner.query(
        `SELECT 1 FROM email.domains WHERE records @> '[{"purpose": "return_path", "type": "TXT"}]' LIMIT 1`,
      )) as unknown[];
      if (legacy.length === 0) return;
      await queryRunner.query(
        `UPDATE email.domains d SET records = (
           SELECT coalesce(jsonb_agg(
             CASE WHEN r->>'purpose' = 'return_path'
               THEN r || jsonb_build_object('type', 'CNAME', 'value', $1::text, 'status', 'pending',
                                            'error', null, 'check', null)
               ELSE r END ORDER BY i), '[]'::jsonb)
           FROM jsonb_array_elements(d.records) WITH ORDINALITY AS e(r, i)
           WHERE NOT (r->>'purpose' = 'return_path' AND r->>'state' = 'deprecated')
         )
         WHERE d.records @> '[{"purpose": "return_path", "type": "TXT"}]'`,
        [target()],
      );
    }

    /** Back to an SPF TXT authorising the target host's addresses, unchecked. */
    async down(queryRunner: QueryRunner): Promise<void> {
      await queryRunner.query(
        `UPDATE email.domains d SET records = (
           SELECT jsonb_agg(
             CASE WHEN r->>'purpose' = 'return_path'
               THEN r || jsonb_build_object('type', 'TXT', 'value', 'v=spf1 a:' || (r->>'value') || ' ~all',
                                            'status', 'pending', 'error', null, 'check', null)
               ELSE r END ORDER BY i)
           FROM jsonb_array_elements(d.records) WITH ORDINALITY AS e(r, i)
         )
         WHERE d.records @> '[{"purpose": "return_path", "type": "CNAME"}]'`,
      );
    }
  };
}
