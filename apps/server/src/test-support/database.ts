import { createHash, randomBytes } from 'node:crypto';
import {
  constants,
  cpSync,
  existsSync,
  mkdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { Kysely } from 'kysely';
import pg from 'pg';
import PgBoss from 'pg-boss';
import { openDatabase, PGLITE_SETTINGS, type DatabaseHandle } from '../db/client.ts';
import { listMigrations, migrate } from '../db/migrate.ts';
import { lockFileFor } from '../db/data-dir-lock.ts';
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
   * Start from an empty database instead of the migrated template (the migrations' own tests).
   * Either way the app's `migrate` and pg-boss's start find what they expect.
   */
  empty?: boolean;
}

/**
 * A fresh database of the kind the Vitest project asks for: in-memory PGlite, or a new
 * PostgreSQL database created for this test file and dropped afterwards.
 *
 * Both start from a database that has every migration and pg-boss's schema, made once per
 * machine and set of migrations (templateKey). PGlite loads a dump of it (pgliteTemplate): initdb
 * alone took 1.5 s of each file's set-up on an idle machine, the migrations 0.1–0.2 s more.
 * PostgreSQL copies a template database (postgresTemplate) instead of running the migrations,
 * each a transaction of its own that waits for its commit to reach the disk.
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
  const template = options.empty ? null : await postgresTemplate();
  const admin = new pg.Client({ connectionString: testPostgresUrl });
  await admin.connect();
  try {
    await admin.query(`create database ${name}${template ? ` template ${template}` : ''}`);
    // A commit returns once written, without waiting for the disk: what every session (and
    // process) sees is the same, only a crash of PostgreSQL itself could lose the latest commits,
    // and no test crashes it. A test file commits a few hundred times, 3-4 ms each on an idle
    // disk (17 files: 93-99 s summed against 101-114 s).
    await admin.query(`alter database ${name} set synchronous_commit = off`);
  } finally {
    await admin.end();
  }
  const url = databaseUrl(name);
  const handle = await openDatabase({ databaseUrl: url, pgliteDataDir: '', poolSize: 5 });
  return {
    ...handle,
    url,
    async close() {
      await handle.close();
      const cleanup = new pg.Client({ connectionString: testPostgresUrl });
      await cleanup.connect();
      await cleanup.query(`drop database if exists ${name} with (force)`);
      await cleanup.end();
    },
  };
}

function databaseUrl(name: string): string {
  const url = new URL(testPostgresUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

const require = createRequire(import.meta.url);

/**
 * A worker process runs many test files (vitest.config.ts: no isolation): the template is looked
 * up or made once per process, and a failure is retried by the next caller.
 */
function oncePerProcess<TValue>(make: () => Promise<TValue>): () => Promise<TValue> {
  let made: Promise<TValue> | null = null;
  return () => {
    made ??= make().catch((error: unknown) => {
      made = null;
      throw error;
    });
    return made;
  };
}

/**
 * Names the migrated template: changes with the migrations' text and the PGlite and pg-boss
 * versions, so a stale template is never used.
 */
function templateKey(): string {
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
  return hash.digest('hex').slice(0, 16);
}

/** Every migration, then pg-boss's own schema as its start() creates it on an empty database. */
async function migrateFully(db: Kysely<Database>, executeSql: DatabaseHandle['executeSql']) {
  await migrate(db);
  // Its version row included, so start() finds it installed: no job, queue or maintenance state.
  await executeSql(PgBoss.getConstructionPlans(BOSS_SCHEMA));
}

/**
 * The migrated PGlite data directory as a tar, cached in the temp directory under templateKey().
 * Test files run in separate workers: the first to need it makes it (two at once both write,
 * each to its own file, and the rename is atomic).
 */
const pgliteTemplate = oncePerProcess(async (): Promise<Blob> => {
  const file = path.join(os.tmpdir(), `cadence-pglite-template-${templateKey()}.tar`);
  try {
    return new Blob([readFileSync(file)]);
  } catch {
    // Not made yet on this machine.
  }
  const client = await PGlite.create('memory://');
  const db = new Kysely<Database>({ dialect: new PgliteDialect(client, new ConnectionLock()) });
  try {
    await migrateFully(db, async (text) => ({
      rows: (await client.exec(text)).at(-1)?.rows ?? [],
    }));
    const dump = await client.dumpDataDir('none');
    const staging = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
    writeFileSync(staging, Buffer.from(await dump.arrayBuffer()));
    renameSync(staging, file);
    return dump;
  } finally {
    await db.destroy();
    await client.close();
  }
});

/**
 * The name of the migrated PostgreSQL database that test databases are copied from (CREATE
 * DATABASE … TEMPLATE), made by the first test that needs it on this server. It is built under a
 * name of its own and renamed once complete, so a copy never starts from a half-made one; when
 * two workers build it at once, the rename of the second fails and it drops its own. Templates of
 * older migrations stay (a few MB each): another checkout on the same server may still use them.
 */
const postgresTemplate = oncePerProcess(async (): Promise<string> => {
  const name = `cadence_template_${templateKey()}`;
  const admin = new pg.Client({ connectionString: testPostgresUrl });
  await admin.connect();
  try {
    const found = await admin.query('select 1 from pg_database where datname = $1', [name]);
    if (found.rowCount) return name;
    const staging = `${name}_${randomBytes(4).toString('hex')}`;
    await admin.query(`create database ${staging}`);
    try {
      const handle = await openDatabase({
        databaseUrl: databaseUrl(staging),
        pgliteDataDir: '',
        poolSize: 1,
      });
      try {
        await migrateFully(handle.db, handle.executeSql);
      } finally {
        await handle.close();
      }
      await admin.query(`alter database ${staging} rename to ${name}`);
    } catch (error) {
      await admin.query(`drop database if exists ${staging} with (force)`);
      // Another worker made it meanwhile: use theirs.
      const made = await admin.query('select 1 from pg_database where datname = $1', [name]);
      if (!made.rowCount) throw error;
    }
    return name;
  } finally {
    await admin.end();
  }
});

/**
 * A migrated PGlite data directory on disk, as the server makes in `DATA_DIR/pgdata` on its first
 * start (PGlite's initdb with the server's settings, every migration, pg-boss's schema), made once
 * per machine under templateKey() and the initdb settings. The e2e files copy it into each
 * server's new DATA_DIR (copyPgliteDataDir): initdb and the migrations are most of a new server's
 * start. It is built under a name of its own and renamed once closed,
 * so no copy starts from a half-made one; when two processes build it at once, the second rename
 * fails and that process uses the first one's.
 */
export async function pgliteDataDirTemplate(): Promise<string> {
  const key = createHash('sha256')
    .update(JSON.stringify([templateKey(), PGLITE_SETTINGS]))
    .digest('hex')
    .slice(0, 16);
  const dir = path.join(os.tmpdir(), `cadence-pglite-data-dir-${key}`);
  if (existsSync(dir)) return dir;
  const staging = `${dir}.${process.pid}.${randomBytes(4).toString('hex')}`;
  try {
    mkdirSync(staging);
    const pgdata = path.join(staging, 'pgdata');
    const handle = await openDatabase({
      databaseUrl: null,
      pgliteDataDir: pgdata,
    });
    try {
      await migrateFully(handle.db, handle.executeSql);
    } finally {
      await handle.close();
    }
    // openDatabase locks the directory with a file beside it (`pgdata.lock`) and removes it once
    // PGlite has closed; copies take `pgdata` alone, so a lock could never come with them anyway.
    if (existsSync(lockFileFor(pgdata))) throw new Error(`${lockFileFor(pgdata)} was left behind`);
    renameSync(staging, dir);
  } catch (error) {
    rmSync(staging, { recursive: true, force: true });
    // Another process made it meanwhile: use theirs.
    if (!existsSync(dir)) throw error;
  }
  return dir;
}

/**
 * Copies the migrated data directory into `dataDir/pgdata` (which must not exist yet), so a server
 * started on `dataDir` opens a database it finds migrated. The copy is the server's alone: no file
 * is shared (PGlite writes its files in place), and no lock file comes with it.
 */
export async function copyPgliteDataDir(dataDir: string): Promise<void> {
  const template = await pgliteDataDirTemplate();
  cpSync(path.join(template, 'pgdata'), path.join(dataDir, 'pgdata'), {
    recursive: true,
    errorOnExist: true,
    force: false,
    // A reflink where the file system has them (btrfs, XFS), else a plain copy.
    mode: constants.COPYFILE_FICLONE,
  });
}
