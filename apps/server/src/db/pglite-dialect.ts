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

/** The longest run of statements before the event loop gets a turn (ConnectionLock.acquire). */
const SLICE_MS = 5;

/**
 * PGlite is one connection. Kysely sends a transaction as separate BEGIN / … / COMMIT queries, so
 * without a lock another request's query could land inside someone else's transaction. This lock
 * makes the single connection behave like a pool of size one, for Kysely and pg-boss alike.
 *
 * - Urgent holders (`acquire(true)`: the publisher's video init confirmations, whose time is a
 *   post's lateness) go before every other waiter, in their order; the others in theirs.
 * - PGlite runs each statement synchronously on this thread, and the lock passes from one holder
 *   to the next through promises: a queue of statements (a burst of publishing runs) ran back to
 *   back as microtasks, and no timer fired and no socket was read until it was empty (seconds
 *   under a burst: a video init's answer was noticed, and its slot stamped, that much later;
 *   decision 039). A holder that would start more than SLICE_MS after the event loop's last turn
 *   first lets it have one (setImmediate: timers and I/O run before it).
 */
export class ConnectionLock {
  #held = false;
  readonly #urgent: (() => void)[] = [];
  readonly #waiting: (() => void)[] = [];
  /** When the current run of statements without a turn of the event loop began. */
  #sliceStart = performance.now();
  #turnNoted = false;

  async acquire(urgent = false): Promise<() => void> {
    if (this.#held) {
      await new Promise<void>((go) => (urgent ? this.#urgent : this.#waiting).push(go));
    } else {
      this.#held = true;
    }
    this.#noteTurn();
    if (performance.now() - this.#sliceStart > SLICE_MS) {
      await new Promise<void>((resolve) => setImmediate(resolve));
      this.#sliceStart = performance.now();
    }
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.#handOver();
    };
  }

  async run<TResult>(task: () => Promise<TResult>): Promise<TResult> {
    const release = await this.acquire();
    try {
      return await task();
    } finally {
      release();
    }
  }

  /** The next waiter takes the lock (still held), urgent ones first; none: it is free. */
  #handOver(): void {
    const next = this.#urgent.shift() ?? this.#waiting.shift();
    if (next) next();
    else this.#held = false;
  }

  /**
   * The first holder of an event loop turn starts a slice (the loop had its turn since the last
   * statement: no needless yield after an idle spell), and the turn's check phase starts the
   * next one.
   */
  #noteTurn(): void {
    if (this.#turnNoted) return;
    this.#turnNoted = true;
    this.#sliceStart = performance.now();
    setImmediate(() => {
      this.#turnNoted = false;
      this.#sliceStart = performance.now();
    });
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
    private readonly urgent: boolean,
  ) {}

  async init(): Promise<void> {}

  async acquireConnection(): Promise<DatabaseConnection> {
    const release = await this.lock.acquire(this.urgent);
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
    /** Its statements go before every other waiter's (ConnectionLock). */
    private readonly options: { urgent?: boolean } = {},
  ) {}

  createAdapter() {
    return new PostgresAdapter();
  }

  createDriver(): Driver {
    return new PgliteDriver(this.client, this.lock, this.options.urgent === true);
  }

  createQueryCompiler() {
    return new PostgresQueryCompiler();
  }

  createIntrospector(db: Kysely<unknown>) {
    return new PostgresIntrospector(db);
  }
}
