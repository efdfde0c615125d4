import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { openDatabase, type DatabaseHandle } from '../db/client.ts';

/** PostgreSQL server for tests; CI and dev machines have one at 127.0.0.1:5432 with trust auth. */
export const testPostgresUrl =
  process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

export type TestDatabaseKind = 'pglite' | 'postgres';

export function testDatabaseKind(): TestDatabaseKind {
  return process.env.TEST_DATABASE === 'postgres' ? 'postgres' : 'pglite';
}

/**
 * A fresh, empty database of the kind the Vitest project asks for: in-memory PGlite, or a new
 * PostgreSQL database created for this test file and dropped afterwards.
 */
export async function openTestDatabase(
  kind: TestDatabaseKind = testDatabaseKind(),
): Promise<DatabaseHandle & { url: string | null }> {
  if (kind === 'pglite') {
    const handle = await openDatabase({ databaseUrl: null, pgliteDataDir: 'memory://' });
    return { ...handle, url: null };
  }
  const name = `cadence_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: testPostgresUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(testPostgresUrl);
  url.pathname = `/${name}`;
  const handle = await openDatabase({
    databaseUrl: url.toString(),
    pgliteDataDir: '',
    poolSize: 5,
  });
  return {
    ...handle,
    url: url.toString(),
    async close() {
      await handle.close();
      const cleanup = new pg.Client({ connectionString: testPostgresUrl });
      await cleanup.connect();
      await cleanup.query(`drop database if exists ${name} with (force)`);
      await cleanup.end();
    },
  };
}
