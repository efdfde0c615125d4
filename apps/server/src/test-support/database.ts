import { createHash, randomBytes } from 'node:crypto';
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { Kysely } from 'kysely';
import pg from 'pg';
import PgBoss from 'pg-boss';
import { openDatabase, type DatabaseHandle } from '../db/client.ts';
import { listMigrations, migrate } from '../db/migrate.ts';
import { ConnectionLock, PgliteDialect } from '../db/pglite-dialect.ts';
import type { Database } from '../db/schema.ts';
import { BOSS_SCHEMA } from '../jobs/boss.ts';

/** PostgreSQL server for tests; CI and dev machines have one at 127.0.0.1:5432 with trust auth. */
export const testPostgresUrl =
  process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

export type TestDatabaseKind = 'pglite' | 'postgres';

export function testDatabaseKind(): TestDatabaseKind {
  return process.env.TEST_DATABASE === 'postgres' ? 'postgres' : 'pglite';
}

export interface TestDatabaseOptions {
  /**
   * PGlite only: start from a bare initdb instead of the migrated template (the migrations'
   * own tests). Either way the app's `migrate` and pg-boss's start find what they expect.
   */
  empty?: boolean;
}

/**
 * A fresh database of the kind the Vitest project asks for: in-memory PGlite, or a new
 * PostgreSQL database created for this test file and dropped afterwards.
 *
 * PGlite starts from a dump of a database that has every migration and pg-boss's schema (made
 * once per machine and set of migrations, see pgliteTemplate): initdb alone took 1.5 s of each
 * file's set-up on an idle machine, the migrations 0.1–0.2 s more.
 */
export async function openTestDatabase(
  kind: TestDatabaseKind = testDatabaseKind(),
  options: TestDatabaseOptions = {},
): Promise<DatabaseHandle & { url: string | null }> {
  if (kind === 'pglite') {
    const handle = await openDatabase({
      databaseUrl: null,
      pgliteDataDir: 'memory://',
      ...(!options.empty && { pgliteLoadDataDir: await pgliteTemplate() }),
    });
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

const require = createRequire(import.meta.url);

/**
 * The migrated PGlite data directory as a tar, cached in the temp directory under a name that
 * changes with the migrations' text and the PGlite and pg-boss versions, so a stale template is
 * never loaded. Test files run in separate workers: the first to need it makes it (two at once
 * both write, each to its own file, and the rename is atomic).
 */
async function pgliteTemplate(): Promise<Blob> {
  const versions = ['@electric-sql/pglite', 'pg-boss'].map((name) => {
    // Neither package exports its package.json: read it next to the entry point.
    const entry = require.resolve(name);
    const root = entry.slice(0, entry.lastIndexOf(name) + name.length);
    return (
      JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { version: string }
    ).version;
  });
  const hash = createHash('sha256').update(JSON.stringify([versions, BOSS_SCHEMA]));
  for (const migration of listMigrations()) hash.update(`${migration.version}\n${migration.sql}`);
  const file = path.join(
    os.tmpdir(),
    `cadence-pglite-template-${hash.digest('hex').slice(0, 16)}.tar`,
  );
  try {
    return new Blob([readFileSync(file)]);
  } catch {
    // Not made yet on this machine.
  }
  const client = await PGlite.create('memory://');
  const db = new Kysely<Database>({ dialect: new PgliteDialect(client, new ConnectionLock()) });
  try {
    await migrate(db);
    // pg-boss's own schema, as its start() creates it on an empty database (its version row
    // included, so start() finds it installed): no job, queue or maintenance state.
    await client.exec(PgBoss.getConstructionPlans(BOSS_SCHEMA));
    const dump = await client.dumpDataDir('none');
    const staging = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
    writeFileSync(staging, Buffer.from(await dump.arrayBuffer()));
    renameSync(staging, file);
    return dump;
  } finally {
    await db.destroy();
    await client.close();
  }
}
