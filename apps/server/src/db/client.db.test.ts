import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pollUntil } from '../tiktok/sandbox-test-kit.ts';
import { testDatabaseKind, testPostgresUrl } from '../test-support/database.ts';
import { openDatabase, type DatabaseHandle } from './client.ts';

// PGlite has no server to lose connections to; this is about node-postgres pools.
describe.runIf(testDatabaseKind() === 'postgres')('PostgreSQL connection pool', () => {
  const lost: Error[] = [];
  let database: DatabaseHandle;
  let admin: pg.Client;
  beforeAll(async () => {
    admin = new pg.Client({ connectionString: testPostgresUrl });
    await admin.connect();
    database = await openDatabase({
      databaseUrl: testPostgresUrl,
      pgliteDataDir: '',
      poolSize: 2,
      onIdleConnectionError: (error) => lost.push(error),
    });
  });
  afterAll(async () => {
    await database.close();
    await admin.end();
  });

  it('survives idle connections terminated by the server and reconnects on the next query', async () => {
    const pid = async () =>
      (await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(database.db)).rows[0]
        ?.pid;
    const before = await pid();
    await admin.query('select pg_terminate_backend($1)', [before]);
    // The terminated idle connection reports its error asynchronously; without a pool listener
    // node-postgres rethrows it and the process dies.
    await pollUntil(
      () => Promise.resolve(lost.length),
      (count) => count > 0,
      { timeoutMs: 5_000, intervalMs: 20 },
    );
    expect((lost[0] as Error & { code?: string }).code).toBe('57P01');
    const after = await pid();
    expect(after).toEqual(expect.any(Number));
    expect(after).not.toBe(before);
  });
});
