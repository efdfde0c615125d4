// One lease mechanism for every row a process works on or locks (docs/decisions/018-one-lease.md):
// posts, story renders, meme analyses, token refresh locks, upload locks. A leased row has
// `lease_owner` (a random token per claim) and `lease_until`; the database's clock alone decides
// expiry, so processes whose clocks drift still agree on who holds what.
import { randomUUID } from 'node:crypto';
import { sql, type Generated, type Kysely, type RawBuilder } from 'kysely';
import type { Database } from './schema.ts';

/** The columns of a leased row. */
export interface LeaseColumns {
  lease_owner: string | null;
  lease_until: Date | null;
}

/**
 * The columns of a work row a job claims (a story render, a meme analysis): its lease, and the
 * runs started since the last one that finished (migration 0011), so a row whose work keeps
 * killing its worker is failed instead of run again forever.
 */
export interface LeasedWorkColumns extends LeaseColumns {
  unfinished_runs: Generated<number>;
}

/** One claim's hold on a row: a token no other claim shares, and how long each renewal lasts. */
export interface Lease {
  readonly owner: string;
  readonly ms: number;
  /** This process's time when the lease was made, right before its claim was sent. */
  readonly claimedAt: number;
}

/**
 * The lease of a media job's row (a story render, a meme stage) and how often its heartbeat
 * renews it, which also tells the job of a cancel from any process. A row whose lease ran out
 * (its worker died) is run again by whichever worker claims it first; the queues' retries wait
 * a little longer than `ms` so a retry can take the row its failed attempt left claimed.
 */
export const MEDIA_JOB_LEASE = { ms: 60_000, heartbeatMs: 500 } as const;

/** A new owner token for a claim lasting `ms` per renewal; make it just before claiming. */
export function newLease(ms: number): Lease {
  return { owner: randomUUID(), ms, claimedAt: Date.now() };
}

/** The end of a lease of `leaseMs` from now, on the database's clock. */
export const leaseEnd = (leaseMs: number) =>
  sql<Date>`now() + ${Math.ceil(leaseMs)}::integer * interval '1 millisecond'`;

/** SET: `lease` holds the row for one lease length from now (a claim). */
export const holdLease = (lease: Lease) => ({
  lease_owner: lease.owner,
  lease_until: leaseEnd(lease.ms),
});

/** SET: nobody holds the row (work finished, handed over, cancelled). */
export const noLease = { lease_owner: null, lease_until: null } as const;

/**
 * WHERE: nobody holds the row: never leased, released, or expired by the database's clock.
 * Unqualified columns: for single-table statements.
 */
export const leaseFree = () => sql<boolean>`(lease_until is null or lease_until <= now())`;

/**
 * WHERE: the claim that got `owner` still holds the row. An expired lease nobody took over is
 * still its owner's: nobody else worked on the row meanwhile.
 */
export const heldBy = (owner: string) => sql<boolean>`lease_owner = ${owner}`;

/** Tables whose rows carry a lease. */
export type LeasedTable = {
  [TName in keyof Database]: Database[TName] extends LeaseColumns ? TName : never;
}[keyof Database];

/**
 * The statements every leased table shares, on `table` keyed by `key`:
 * - `renew`: extends the lease while `lease.owner` holds it (and the row is still in a state
 *   worth holding, `heldWhile`); false when the lease is lost, and the work must stop.
 * - lock rows (a row exists only while held): `claim` inserts the row, or takes over one whose
 *   lease expired; `release` deletes it if still ours; `isHeld` and `deleteExpired`.
 * Work rows (posts, stories, meme analyses) are claimed and released by their repositories' own
 * UPDATEs, built from `holdLease`, `leaseFree`, `heldBy` and `noLease`.
 */
export function leaseStatements<TTable extends LeasedTable>(
  db: Kysely<Database>,
  table: TTable,
  key: string & keyof Database[TTable],
  options: { heldWhile?: RawBuilder<boolean> } = {},
) {
  const target = sql.table(table);
  const keyColumn = sql.ref(key);
  const heldWhile = options.heldWhile ?? sql<boolean>`true`;
  return {
    async renew(keyValue: string, lease: Lease): Promise<boolean> {
      const result = await sql`
        update ${target} set lease_until = ${leaseEnd(lease.ms)}
        where ${keyColumn} = ${keyValue} and ${heldBy(lease.owner)} and ${heldWhile}
      `.execute(db);
      return (result.numAffectedRows ?? 0n) > 0n;
    },

    /** Lock rows: takes the lock when it is free or its lease ran out; true when `lease` holds it. */
    async claim(keyValue: string, lease: Lease): Promise<boolean> {
      // In ON CONFLICT, unqualified columns would be ambiguous with `excluded`.
      const result = await sql<{ lease_owner: string }>`
        insert into ${target} (${keyColumn}, lease_owner, lease_until)
        values (${keyValue}, ${lease.owner}, ${leaseEnd(lease.ms)})
        on conflict (${keyColumn}) do update
          set lease_owner = excluded.lease_owner, lease_until = excluded.lease_until
          where ${sql.ref(`${table}.lease_until`)} <= now()
        returning lease_owner
      `.execute(db);
      return result.rows.length > 0;
    },

    /** Lock rows: true while some claim holds an unexpired lease on the lock. */
    async isHeld(keyValue: string): Promise<boolean> {
      const result = await sql`
        select 1 from ${target} where ${keyColumn} = ${keyValue} and lease_until > now()
      `.execute(db);
      return result.rows.length > 0;
    },

    /**
     * Lock rows: frees the lock if `owner` still holds it; with `notify`, announces the key on
     * that channel in the same statement. True when it was still ours.
     */
    async release(keyValue: string, owner: string, notify?: string): Promise<boolean> {
      const released = sql`
        delete from ${target} where ${keyColumn} = ${keyValue} and ${heldBy(owner)}
        returning ${keyColumn} as key
      `;
      const result = notify
        ? await sql`with released as (${released}) select pg_notify(${notify}, key) from released`.execute(
            db,
          )
        : await released.execute(db);
      return result.rows.length > 0;
    },

    /** Lock rows: forgets the locks of processes that died (an expired lock is free anyway). */
    async deleteExpired(): Promise<number> {
      const result = await sql`delete from ${target} where lease_until <= now()`.execute(db);
      return Number(result.numAffectedRows ?? 0n);
    },
  };
}
