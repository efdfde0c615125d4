// Statements planned once per connection (prepared.ts, decision 039): a
// marked statement becomes a named prepared statement on PostgreSQL, runs as a plain one with a
// comment on PGlite, and answers the same either way.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase, testDatabaseKind } from '../test-support/database.ts';
import type { DatabaseHandle } from './client.ts';
import { prepared, preparedName } from './prepared.ts';

describe('prepared statements', () => {
  let database: DatabaseHandle;
  beforeAll(async () => {
    database = await openTestDatabase();
  });
  afterAll(() => database.close());

  /** The same marked statement on one connection, `times` over, and what that connection holds. */
  async function runOnOneConnection(db: DatabaseHandle['db'], times: number) {
    return db.connection().execute(async (connection) => {
      const answers: number[] = [];
      for (let run = 1; run <= times; run++) {
        const { rows } = await sql<{ n: number }>`${prepared('prepared_test')}
          select ${run}::int * 2 as n`.execute(connection);
        answers.push(rows[0]?.n ?? -1);
      }
      const held =
        database.kind === 'postgres'
          ? (
              await sql<{
                name: string;
                generic_plans: string;
                custom_plans: string;
              }>`select name, generic_plans, custom_plans from pg_prepared_statements`.execute(
                connection,
              )
            ).rows
          : [];
      return { answers, held };
    });
  }

  it('answers a marked statement as an unmarked one, each run with its own values', async () => {
    const { answers } = await runOnOneConnection(database.db, 8);
    expect(answers).toEqual([2, 4, 6, 8, 10, 12, 14, 16]);
  });

  it.runIf(testDatabaseKind() === 'postgres')(
    'prepares a marked statement once per connection, its plan kept across runs',
    async () => {
      for (const db of [database.db, database.urgentDb]) {
        const { held } = await runOnOneConnection(db, 8);
        const mine = held.filter((statement) => statement.name.startsWith('prepared_test_'));
        // One statement for the eight runs; PostgreSQL plans it anew for the first five, then
        // keeps the generic plan: no planning for the runs after.
        expect(mine).toHaveLength(1);
        expect(Number(mine[0]?.generic_plans)).toBeGreaterThan(0);
      }
    },
  );

  it('names a marked text by its mark and its digest, and leaves unmarked texts alone', () => {
    const one = preparedName('/* prepared: settle_inits */ select 1');
    const other = preparedName('/* prepared: settle_inits */ select 2');
    expect(one).toMatch(/^settle_inits_[0-9a-f]{12}$/);
    expect(other).toMatch(/^settle_inits_[0-9a-f]{12}$/);
    expect(one).not.toBe(other);
    expect(preparedName('select 1 /* prepared: x */')).toBeUndefined();
    expect(() => prepared('Robert"); drop table posts; --')).toThrow();
  });
});
