import type { PGlite } from '@electric-sql/pglite';
import {
  CompiledQuery,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  type Kysely,
  type QueryResult,
} from 'kysely';

/**
 * PGlite is one connection. Kysely sends a transaction as separate BEGIN / … / COMMIT queries, so
 * without a lock another request's query could land inside someone else's transaction. This lock
 * makes the single connection behave like a pool of size one, for Kysely and pg-boss alike.
 */
export class ConnectionLock {
  #tail: Promise<void> = Promise.resolve();

  async acquire(): Promise<() => void> {
    let release!: () => void;
    const next = new Promise<void>((resolve) => (release = resolve));
    const previous = this.#tail;
    this.#tail = previous.then(() => next);
    await previous;
    return release;
  }

  async run<TResult>(task: () => Promise<TResult>): Promise<TResult> {
    const release = await this.acquire();
    try {
      return await task();
    } finally {
      release();
    }
  }
}

class PgliteConnection implements DatabaseConnection {
  constructor(private readonly client: PGlite) {}

  async executeQuery<TRow>(compiledQuery: CompiledQuery): Promise<QueryResult<TRow>> {
    // Without parameters, use the simple protocol: it accepts multi-statement scripts (migrations).
    const result =
      compiledQuery.parameters.length === 0
        ? ((await this.client.exec(compiledQuery.sql)).at(-1) ?? { rows: [], affectedRows: 0 })
        : await this.client.query<TRow>(compiledQuery.sql, [...compiledQuery.parameters]);
    return {
      rows: result.rows as TRow[],
      ...(result.affectedRows === undefined
        ? {}
        : { numAffectedRows: BigInt(result.affectedRows) }),
    };
  }

  // eslint-disable-next-line require-yield
  async *streamQuery<TRow>(): AsyncIterableIterator<QueryResult<TRow>> {
    throw new Error('PGlite does not support streaming queries');
  }
}

class PgliteDriver implements Driver {
  readonly #releases = new WeakMap<DatabaseConnection, () => void>();

  constructor(
    private readonly client: PGlite,
    private readonly lock: ConnectionLock,
  ) {}

  async init(): Promise<void> {}

  async acquireConnection(): Promise<DatabaseConnection> {
    const release = await this.lock.acquire();
    const connection = new PgliteConnection(this.client);
    this.#releases.set(connection, release);
    return connection;
  }

  async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('BEGIN'));
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('COMMIT'));
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('ROLLBACK'));
  }

  async releaseConnection(connection: DatabaseConnection): Promise<void> {
    this.#releases.get(connection)?.();
    this.#releases.delete(connection);
  }

  async destroy(): Promise<void> {
    // The owner of the PGlite instance closes it (see db/client.ts).
  }
}

export class PgliteDialect implements Dialect {
  constructor(
    private readonly client: PGlite,
    private readonly lock: ConnectionLock,
  ) {}

  createAdapter() {
    return new PostgresAdapter();
  }

  createDriver(): Driver {
    return new PgliteDriver(this.client, this.lock);
  }

  createQueryCompiler() {
    return new PostgresQueryCompiler();
  }

  createIntrospector(db: Kysely<unknown>) {
    return new PostgresIntrospector(db);
  }
}
