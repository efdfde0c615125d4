import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pollUntil } from '../tiktok/sandbox-test-kit.ts';
import { testDatabaseKind, testPostgresUrl } from '../test-support/database.ts';
import { openDatabase, PGLITE_SETTINGS, type DatabaseHandle } from './client.ts';

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

// Decision 040: PostgreSQL's server defaults (a 128 MB buffer pool) made up a third of the embedded
// server's idle RSS, in a WASM heap that never shrinks.
describe.runIf(testDatabaseKind() === 'pglite')('embedded PGlite memory settings', () => {
  const settingsOf = async (database: DatabaseHandle) => {
    const names = Object.keys(PGLITE_SETTINGS);
    const rows = await Promise.all(
      names.map(
        async (name) =>
          [
            name,
            (
              await sql<{ value: string }>`select current_setting(${name}) as value`.execute(
                database.db,
              )
            ).rows[0]?.value,
          ] as const,
      ),
    );
    return Object.fromEntries(rows);
  };

  it('runs PostgreSQL with the small-machine settings, in memory', async () => {
    const database = await openDatabase({ databaseUrl: null, pgliteDataDir: 'memory://' });
    try {
      expect(await settingsOf(database)).toEqual(PGLITE_SETTINGS);
    } finally {
      await database.close();
    }
  });

  it('writes them into a new data directory and applies them over an older postgresql.conf', async () => {
    const root = await mkdtemp(join(tmpdir(), 'cadence-pglite-settings-'));
    const dataDir = join(root, 'pgdata');
    try {
      const created = await openDatabase({ databaseUrl: null, pgliteDataDir: dataDir });
      await created.close();
      const conf = await readFile(join(dataDir, 'postgresql.conf'), 'utf8');
      expect(conf).toMatch(/^shared_buffers = 16MB\b/m);

      // A directory made before decision 040 has PostgreSQL's defaults in postgresql.conf.
      await writeFile(
        join(dataDir, 'postgresql.conf'),
        conf.replace(/^shared_buffers = .*$/m, 'shared_buffers = 128MB'),
      );
      const reopened = await openDatabase({ databaseUrl: null, pgliteDataDir: dataDir });
      try {
        expect(await settingsOf(reopened)).toEqual(PGLITE_SETTINGS);
      } finally {
        await reopened.close();
      }
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });
});
