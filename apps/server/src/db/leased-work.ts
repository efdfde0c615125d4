// Leased work rows (docs/decisions/018-one-lease.md): one row per unit of background
// work a user asked for — a story render, a meme analysis. A user may have only so many active at
// once; a job claims its row under a lease (./lease.ts), writes only while it holds it, and ends
// the run as completed, failed, cancelled or handed back; a restart finds the runs left active.
// Table and column names here are code constants, never input; every value is a parameter.
import {
  sql,
  type Generated,
  type Kysely,
  type RawBuilder,
  type Selectable,
  type Transaction,
} from 'kysely';
import {
  heldBy,
  leaseEnd,
  leaseFree,
  leaseStatements,
  type Lease,
  type LeasedWorkColumns,
} from './lease.ts';
import type { Database } from './schema.ts';

/** The columns the shared statements read and write; a work table may have any others. */
export interface LeasedWorkTable<
  TStatus extends string,
  TFailReason extends string,
> extends LeasedWorkColumns {
  id: string;
  user_id: string;
  status: Generated<TStatus>;
  progress: Generated<number>;
  result_media_id: string | null;
  fail_reason: TFailReason | null;
  created_at: Generated<Date>;
  finished_at: Date | null;
}

/** How a run ends, whatever the table: statuses every work table has. */
type EndStatus = 'completed' | 'failed' | 'cancelled';

type StatusOf<TTable extends keyof Database> =
  Database[TTable] extends LeasedWorkTable<infer TStatus, string> ? TStatus : never;

type FailReasonOf<TTable extends keyof Database> =
  Database[TTable] extends LeasedWorkTable<string, infer TFailReason> ? TFailReason : never;

/** Tables of leased work rows (stories, meme_analyses). */
export type LeasedWorkTableName = {
  [TName in keyof Database]: Database[TName] extends LeasedWorkTable<string, string>
    ? EndStatus extends StatusOf<TName>
      ? TName
      : never
    : never;
}[keyof Database];

/** What differs between two work tables. */
export interface LeasedWorkRules<TTable extends LeasedWorkTableName> {
  /**
   * Names the per-user advisory lock that makes simultaneous inserts count one after the other
   * (`${limitLock}:${userId}`). Never rename it: during a deploy, processes of the old and the
   * new release must take the same lock.
   */
  limitLock: string;
  /** Queued and running: counted against the user's limit, cancellable, re-queued at start-up. */
  active: readonly StatusOf<TTable>[];
  /**
   * Statuses a job holds the lease in. A renewal or a leased write lands only while the row is
   * in one of them (every statement that moves it out also releases the lease).
   */
  running: readonly StatusOf<TTable>[];
  /** The status of a row handed back; unset, it keeps its own (its stage is queued again). */
  handedBackAs?: StatusOf<TTable>;
  /** A user's list: newest first, then by `thenBy`, at most `limit` rows. */
  list: { thenBy: string & keyof Database[TTable]; limit: number };
}

/** The SQL every statement of work table `table` is made of, as `rules` say. */
function workTableSql<TTable extends LeasedWorkTableName>(
  db: Kysely<Database>,
  table: TTable,
  rules: LeasedWorkRules<TTable>,
) {
  type Row = Selectable<Database[TTable]>;
  type Status = StatusOf<TTable>;
  type FailReason = FailReasonOf<TTable>;

  const target = sql.table(table);
  const statusIn = (statuses: readonly Status[]) =>
    statuses.length === 0 ? sql<boolean>`false` : sql<boolean>`status in (${sql.join(statuses)})`;
  const running = statusIn(rules.running);

  /** WHERE: the claim that got `owner` still holds the row, and the row is still running. */
  const heldWhileRunning = (owner: string) => sql<boolean>`${heldBy(owner)} and ${running}`;

  /** SET: the run is over, whichever way — its end, its count of unfinished runs, its lease. */
  const runEnded = () =>
    sql`finished_at = ${new Date()}, unfinished_runs = 0, lease_owner = null, lease_until = null`;

  const failed = (reason: FailReason) =>
    sql`status = 'failed', fail_reason = ${reason}, ${runEnded()}`;

  /** UPDATE of row `id` that lands only while `owner` holds it; true when it did. */
  async function updateHeld(id: string, owner: string, set: RawBuilder<unknown>): Promise<boolean> {
    const result = await sql`
      update ${target} set ${set} where id = ${id} and ${heldWhileRunning(owner)}
    `.execute(db);
    return (result.numAffectedRows ?? 0n) > 0n;
  }

  async function firstRow(query: RawBuilder<Row>): Promise<Row | undefined> {
    return (await query.execute(db)).rows[0];
  }

  /** Fails the row if it is in one of `statuses`, lease or not. */
  async function failIn(id: string, statuses: readonly Status[], reason: FailReason) {
    await sql`
      update ${target} set ${failed(reason)} where id = ${id} and ${statusIn(statuses)}
    `.execute(db);
  }

  return {
    db,
    table,
    rules,
    target,
    statusIn,
    active: statusIn(rules.active),
    leases: leaseStatements(db, table, 'id', { heldWhile: running }),
    heldWhileRunning,
    runEnded,
    failed,
    updateHeld,
    firstRow,
    failIn,
  };
}

type WorkTableSql<TTable extends LeasedWorkTableName> = ReturnType<typeof workTableSql<TTable>>;

/** A user's own rows: their list, one row, and cancelling an active one. */
function userStatements<TTable extends LeasedWorkTableName>(work: WorkTableSql<TTable>) {
  type Row = Selectable<Database[TTable]>;
  const { db, rules, target, active, runEnded, firstRow } = work;
  return {
    async listForUser(userId: string): Promise<Row[]> {
      const result = await sql<Row>`
        select * from ${target} where user_id = ${userId}
        order by created_at desc, ${sql.ref(rules.list.thenBy)} asc
        limit ${rules.list.limit}
      `.execute(db);
      return result.rows;
    },

    findForUser(userId: string, id: string): Promise<Row | undefined> {
      return firstRow(sql<Row>`select * from ${target} where user_id = ${userId} and id = ${id}`);
    },

    /** Active → cancelled (the lease goes: the job stops); undefined when it was not active. */
    cancel(userId: string, id: string): Promise<Row | undefined> {
      return firstRow(sql<Row>`
        update ${target} set status = 'cancelled', ${runEnded()}
        where user_id = ${userId} and id = ${id} and ${active}
        returning *
      `);
    },
  };
}

/** A job's run of a row: its lease, progress and end; and the rows a restart must re-queue. */
function runStatements<TTable extends LeasedWorkTableName>(work: WorkTableSql<TTable>) {
  type Status = StatusOf<TTable>;
  type FailReason = FailReasonOf<TTable>;
  const { db, rules, target, active, leases, runEnded, updateHeld, failed, failIn } = work;
  return {
    /** Extends the run's lease; false once it is lost (cancelled, deleted, taken over…). */
    renewLease: (id: string, lease: Lease): Promise<boolean> => leases.renew(id, lease),

    async setProgress(id: string, owner: string, progress: number): Promise<void> {
      await updateHeld(id, owner, sql`progress = ${progress}`);
    },

    /** False when the run is no longer `owner`'s (cancelled, deleted, taken over): unwanted. */
    complete(id: string, owner: string, resultMediaId: string): Promise<boolean> {
      return updateHeld(
        id,
        owner,
        sql`status = 'completed', progress = 1, result_media_id = ${resultMediaId}, ${runEnded()}`,
      );
    },

    /**
     * Frees a run `owner` may still hold, for its job to be queued again: its renewals went
     * unconfirmed (a slow database, a starved process), so it stopped without dying with its
     * process, and this run is not counted towards the crash limit. False when no longer ours.
     */
    handBack(id: string, owner: string): Promise<boolean> {
      return updateHeld(
        id,
        owner,
        sql`status = ${rules.handedBackAs ?? sql.ref('status')}, progress = 0,
          unfinished_runs = greatest(unfinished_runs - 1, 0), lease_owner = null, lease_until = null`,
      );
    },

    /** Fails the run `owner` holds; nothing when it is no longer its. */
    async fail(id: string, owner: string, reason: FailReason): Promise<void> {
      await updateHeld(id, owner, failed(reason));
    },

    /** Fails the row if still active, lease or not (a job that gave up, a queue that refused). */
    failUnleased: (id: string, reason: FailReason): Promise<void> =>
      failIn(id, rules.active, reason),

    /** Rows a job should exist for but may not: everything still active. */
    async findInterrupted(): Promise<{ id: string; status: Status }[]> {
      const result = await sql<{ id: string; status: Status }>`
        select id, status from ${target} where ${active}
      `.execute(db);
      return result.rows;
    },
  };
}

/**
 * Runs `insert` (`adding` rows of `userId`) unless the user would then have more than `limit`
 * active rows; null when refused. The user's advisory lock makes two simultaneous requests
 * count one after the other.
 */
function insertWithinLimitStatement<TTable extends LeasedWorkTableName>({
  db,
  table,
  rules,
  target,
  active,
}: WorkTableSql<TTable>) {
  return <TInserted>(
    userId: string,
    adding: number,
    limit: number,
    insert: (trx: Transaction<Database>) => Promise<TInserted>,
  ): Promise<TInserted | null> =>
    db.transaction().execute(async (trx) => {
      await sql`select pg_advisory_xact_lock(hashtext(${`${rules.limitLock}:${userId}`}))`.execute(
        trx,
      );
      const { rows } = await sql<{ count: number }>`
        select count(*)::integer as count from ${target} where user_id = ${userId} and ${active}
      `.execute(trx);
      const count = rows[0]?.count;
      if (count === undefined) throw new Error(`no count of active ${table}`);
      return count + adding > limit ? null : insert(trx);
    });
}

/**
 * Takes row `id` for a run under `lease`, moving it to `claimed.as` (a status, or SQL that
 * picks one): when its status is one of `claimed.from`, or one of `claimed.orUnleasedIn` and
 * its lease is free (handed back, or its worker died and the lease ran out: the run starts
 * again). The run is counted until one finishes (`unfinished_runs`). Undefined otherwise: a
 * duplicate or late job does nothing.
 */
function claimStatement<TTable extends LeasedWorkTableName>({
  target,
  statusIn,
  firstRow,
}: WorkTableSql<TTable>) {
  type Row = Selectable<Database[TTable]>;
  type Status = StatusOf<TTable>;
  return (
    id: string,
    lease: Lease,
    claimed: {
      from: readonly Status[];
      orUnleasedIn: readonly Status[];
      as: Status | RawBuilder<Status>;
    },
  ): Promise<Row | undefined> =>
    firstRow(sql<Row>`
      update ${target}
      set status = ${claimed.as}, progress = 0, fail_reason = null,
        lease_owner = ${lease.owner}, lease_until = ${leaseEnd(lease.ms)},
        unfinished_runs = unfinished_runs + 1
      where id = ${id}
        and (${statusIn(claimed.from)} or (${statusIn(claimed.orUnleasedIn)} and ${leaseFree()}))
      returning *
    `);
}

/**
 * The statements of a work table `table`, as `rules` say:
 * - `common`: what a repository of such a table offers as it is — a user's list, one row,
 *   cancel; a job's lease renewal, progress, completion, hand-back, failure; the active rows a
 *   restart must re-queue.
 * - `insertWithinLimit`, `claim`, `heldBy`, `failIn`: for the repository's own statements.
 */
export function leasedWorkTable<TTable extends LeasedWorkTableName>(
  db: Kysely<Database>,
  table: TTable,
  rules: LeasedWorkRules<TTable>,
) {
  const work = workTableSql(db, table, rules);
  return {
    common: { ...userStatements(work), ...runStatements(work) },

    insertWithinLimit: insertWithinLimitStatement(work),
    claim: claimStatement(work),

    /** WHERE for the repository's own leased writes: as `common`'s, held by `owner`, running. */
    heldBy: work.heldWhileRunning,

    failIn: work.failIn,
  };
}
