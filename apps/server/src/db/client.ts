import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import { acquireDataDirLock, type DataDirLock } from './data-dir-lock.ts';
import { ConnectionLock, PgliteDialect } from './pglite-dialect.ts';
import { PreparingClient } from './prepared.ts';
import type { Database } from './schema.ts';

/** pg-boss's `db` option: one statement with parameters, or a parameterless script. */
export type ExecuteSql = (text: string, values?: unknown[]) => Promise<{ rows: unknown[] }>;

export interface DatabaseHandle {
  kind: 'pglite' | 'postgres';
  db: Kysely<Database>;
  /**
   * The same database for the few statements whose time is a post's lateness (the publisher's
   * video init confirmations, decision 039): on PostgreSQL a pool of its own
   * (URGENT_POOL_SIZE connections, opened when first used), on PGlite the connection's urgent
   * lane (ConnectionLock). Never for transactions or long statements: they would hold the lane.
   */
  urgentDb: Kysely<Database>;
  executeSql: ExecuteSql;
  /** For pg-boss on PostgreSQL: it manages its own pool. */
  connectionString: string | null;
  close(): Promise<void>;
}

export interface DatabaseOptions {
  /** postgres://… or null for PGlite. */
  databaseUrl: string | null;
  /** PGlite data directory; `memory://` for an in-memory database (tests). */
  pgliteDataDir: string;
  /**
   * A PGlite data directory dumped by `dumpDataDir('none')` to start from instead of running
   * initdb (tests: a database already migrated, in a fraction of initdb's time).
   */
  pgliteLoadDataDir?: Blob;
  poolSize?: number;
  /**
   * An idle pooled connection died (PostgreSQL restarted, or an admin terminated it). The pool
   * drops it and opens a new one on the next query; without a listener node-postgres would throw
   * this from the socket and crash the process.
   */
  onIdleConnectionError?: (error: Error) => void;
}

/** Connections of the urgent pool (DatabaseHandle.urgentDb) on PostgreSQL. */
export const URGENT_POOL_SIZE = 2;

// Timestamps come back as Date and bigint counters as numbers in both drivers.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));

/**
 * PostgreSQL settings for embedded PGlite, sized for one process on a small machine (decision
 * 040). PGlite's initdb writes PostgreSQL's server defaults into postgresql.conf, and its WASM heap
 * holds everything PostgreSQL allocates: the 128 MB buffer pool alone was a third of the server's
 * idle RSS, and a WASM memory never gives back what it grew to. Its data files are ordinary files,
 * so the kernel's page cache still caches what the smaller pool does not. Passed on the command
 * line, these win over postgresql.conf, so existing data directories get them too.
 */
export const PGLITE_SETTINGS: Readonly<Record<string, string>> = {
  shared_buffers: '16MB',
  // One backend in single-user mode: the shared lock and process tables need only a few slots.
  max_connections: '10',
  // CREATE INDEX in a migration may otherwise grow the heap by 64 MB for good.
  maintenance_work_mem: '16MB',
};

const pgliteStartParams = (): string[] => [
  ...PGlite.defaultStartParams,
  ...Object.entries(PGLITE_SETTINGS).flatMap(([name, value]) => ['-c', `${name}=${value}`]),
];

/** The same settings written into postgresql.conf by initdb, for a new data directory. */
const pgliteInitDbParams = (): string[] =>
  Object.entries(PGLITE_SETTINGS).flatMap(([name, value]) => ['--set', `${name}=${value}`]);

export async function openDatabase(options: DatabaseOptions): Promise<DatabaseHandle> {
  if (options.databaseUrl) {
    const pool = new pg.Pool({
      connectionString: options.databaseUrl,
      max: options.poolSize ?? 10,
      Client: PreparingClient,
    });
    // The pool has already dropped the dead client; the listener only keeps the error from being
    // rethrown as an uncaught exception.
    pool.on('error', (error) => options.onIdleConnectionError?.(error));
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    const urgentPool = new pg.Pool({
      connectionString: options.databaseUrl,
      max: URGENT_POOL_SIZE,
      Client: PreparingClient,
    });
    urgentPool.on('error', (error) => options.onIdleConnectionError?.(error));
    const urgentDb = new Kysely<Database>({ dialect: new PostgresDialect({ pool: urgentPool }) });
    return {
      kind: 'postgres',
      db,
      urgentDb,
      connectionString: options.databaseUrl,
      executeSql: async (text, values) => {
        const result = await pool.query(text, values);
        return { rows: result.rows };
      },
      close: async () => {
        await urgentDb.destroy();
        await db.destroy();
      },
    };
  }

  // Every entry point (server, worker, admin, tests) opens PGlite here, so this is where the
  // single-owner rule is enforced: DataDirLockedError when another live process has it open.
  let dataDirLock: DataDirLock | null = null;
  if (!options.pgliteDataDir.startsWith('memory://')) {
    mkdirSync(path.dirname(path.resolve(options.pgliteDataDir)), { recursive: true });
    dataDirLock = acquireDataDirLock(options.pgliteDataDir);
    mkdirSync(path.resolve(options.pgliteDataDir), { recursive: true });
  }
  let client: PGlite;
  try {
    client = await PGlite.create({
      dataDir: options.pgliteDataDir,
      ...(options.pgliteLoadDataDir && { loadDataDir: options.pgliteLoadDataDir }),
      startParams: pgliteStartParams(),
      initDbStartParams: pgliteInitDbParams(),
    });
  } catch (error) {
    dataDirLock?.release();
    throw error;
  }
  // INT8 as number, as with node-postgres above.
  const lock = new ConnectionLock();
  const db = new Kysely<Database>({ dialect: new PgliteDialect(client, lock) });
  const urgentDb = new Kysely<Database>({
    dialect: new PgliteDialect(client, lock, { urgent: true }),
  });
  return {
    kind: 'pglite',
    db,
    urgentDb,
    connectionString: null,
    executeSql: (text, values) =>
      lock.run(async () => {
        if (!values || values.length === 0) {
          // pg-boss sends multi-statement scripts (schema creation, migrations) without parameters.
          const results = await client.exec(text);
          return { rows: results.at(-1)?.rows ?? [] };
        }
        const result = await client.query(text, values);
        return { rows: result.rows };
      }),
    close: async () => {
      try {
        await urgentDb.destroy();
        await db.destroy();
        await client.close();
      } finally {
        // Only once PGlite has written everything back may another process open the directory.
        dataDirLock?.release();
      }
    },
  };
}
