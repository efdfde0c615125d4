// The per-account rate ledger (decision 039): a start reserves a slot in its account's window,
// confirms it right before the request leaves, and settles it at the platform's answer; a slot
// nothing was sent on is released. The window (how many starts, over how long) is the driver's
// PlatformLimits.startWindow.
import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { createCoalescer, type CoalescerOptions } from '../../lib/coalescer.ts';
import {
  CONFIRM_BATCH_MAX,
  CONFIRM_BATCH_WINDOW_MS,
  CONFIRM_BATCHES_IN_FLIGHT,
  confirmBatch,
  type ConfirmAnswer,
  type ConfirmItem,
} from './confirm-batch.ts';
import type { DbClock } from './db-clock.ts';
import {
  countedWithin,
  INIT_FLIGHT_MS,
  provisionalStamp,
  stamps,
  type InitSlot,
} from './ledger-sql.ts';
import { SETTLE_BATCH, settleBatch, type SettleAnswer, type SettleItem } from './settle-batch.ts';
import { clockReading, epochMsOf, ms } from './sql-instants.ts';

/**
 * The window the ledger paces by when no driver gives one (the core's own tests): 6 starts per
 * sliding minute, TikTok's video init limit, the strictest of the platforms.
 */
export const DEFAULT_START_WINDOW = { starts: 6, windowMs: 60_000 };
/**
 * Added to the platform's window. The stamps it is measured between are already on the safe side (the
 * reservation of a new init, the answer to an old one), so this only covers how the platform
 * rounds its window's edge, which TikTok does not document.
 */
export const INIT_WINDOW_MARGIN_MS = 1_000;
/**
 * Our window: an init counts until this long after its answer (docs/decisions/039), TikTok's
 * `platformWindowMs` (the driver's PlatformLimits.startWindow; a sandbox's shorter one in tests) plus
 * the margin.
 */
export const initWindowMs = (platformWindowMs: number) => platformWindowMs + INIT_WINDOW_MARGIN_MS;
/**
 * A paced post whose window is full of inits still in flight comes back when the earliest of
 * them could free its slot: a window after the moment it could have left at the earliest (its
 * stamp, INIT_FLIGHT_MS after its reservation or its send, less INIT_FLIGHT_MS). Only when that
 * moment is already past (a window shorter than the flight, in tests) does it ask again this
 * soon: asking again every few seconds instead, a burst's paced posts asked over and over while
 * the burst's inits went out, for slots that could not free yet. A slot given back unsent (releaseInit) is
 * found at that moment, when the paced post would have had one anyway.
 */
export const INIT_IN_FLIGHT_RECHECK_MS = 10_000;

/**
 * Reserves one of the account's video inits (decision 039): `{ slot }` when reserved, else
 * `{ freeAt }`, when to ask again. The window is one array of stamps on the account's row and
 * every change is one UPDATE of that row, so concurrent processes queue on its lock and each
 * re-reads the array after the wait: at most `window.starts` are ever counted. A reserved
 * init is stamped INIT_FLIGHT_MS ahead (it counts at least that long, even if its process
 * dies), `confirmAndMarkInit` stamps it again just before the request leaves, and `settleInit` puts
 * the time of the platform's answer once it is in: the platform counted the request before that
 * moment, so the next start goes out at least our window after the platform's count of this one.
 */
export async function reserveSlot(
  db: Kysely<Database>,
  clock: DbClock,
  /** The account's window: starts counted, and over how long (our window, initWindowMs). */
  window: { starts: number; windowMs: number },
  accountId: string,
  /**
   * A slot that frees within this long is reserved too (a prepared run: PREPARE_LEAD_MS),
   * with `freesAtMs` saying when, on the database's clock (epoch ms; null: it is free now).
   */
  aheadMs = 0,
): Promise<{ slot: InitSlot; freesAtMs: number | null } | { freeAt: Date; known: boolean }> {
  // One statement: the account's first init inserts its row, any later one appends to it
  // (ON CONFLICT takes the row lock and re-reads the latest version, as an UPDATE does).
  // With `aheadMs`, the window is counted as it will be then: the slot is the one the
  // oldest counted init frees a window after its stamp, and the init waits for that moment.
  const countedThen = sql<Date[]>`array(select t from unnest(${stamps}) t
    where t > clock_timestamp() + ${ms(aheadMs)} - ${ms(window.windowMs)})`;
  /** The others' `window.starts`-th latest stamp: ours may go a window after it (none: at once). */
  const others = sql`${stamps}[1:cardinality(${stamps}) - 1]`;
  const othersSixthLatest = sql<Date | null>`(select t from unnest(${others}) t
    order by t desc offset ${window.starts - 1} limit 1)`;
  /** When our slot frees: a window after the others' sixth latest stamp. */
  const freesAt = sql<Date | null>`${othersSixthLatest} + ${ms(window.windowMs)}`;
  const sentAt = performance.now();
  const reserved = await db
    .insertInto('tiktok_init_pacing')
    .values({
      account_id: accountId,
      recent_inits: sql<Date[]>`array[clock_timestamp() + ${ms(INIT_FLIGHT_MS)}]`,
    })
    .onConflict((oc) =>
      oc
        .column('account_id')
        .doUpdateSet({
          recent_inits: sql<Date[]>`${countedWithin(window.windowMs)} || ${provisionalStamp()}`,
        })
        .where(sql<number>`cardinality(${countedThen})`, '<', window.starts),
    )
    .returning([
      sql<string>`(${stamps}[cardinality(${stamps})])::text`.as('stamp'),
      sql<number>`cardinality(${stamps}) - 1`.as('rank'),
      sql<number | null>`case when ${freesAt} > clock_timestamp()
        then ${epochMsOf(freesAt)} end`.as('frees_at_ms'),
      clockReading.as('db_ms'),
    ])
    .executeTakeFirst();
  if (reserved) {
    clock.observe(reserved.db_ms, sentAt, performance.now());
    return {
      slot: { accountId, stamp: reserved.stamp, rank: reserved.rank },
      freesAtMs: reserved.frees_at_ms,
    };
  }
  // Refused: a slot frees a window after the sixth latest stamp, when that init is settled
  // (`known`: a prepared run may start before it). One still in flight is answered at the
  // earliest once it has left, and it left no sooner than INIT_FLIGHT_MS before its stamp:
  // no slot frees before a window after the sixth latest of those moments.
  const row = await db
    .selectFrom('tiktok_init_pacing')
    .select([
      sql<Date | null>`(select t from unnest(recent_inits) t
        order by t desc offset ${window.starts - 1} limit 1)`.as('sixth_latest'),
      sql<Date | null>`(select left_by from (select case when t > clock_timestamp()
          then t - ${ms(INIT_FLIGHT_MS)} else t end as left_by from unnest(recent_inits) t) s
        order by left_by desc offset ${window.starts - 1} limit 1)`.as('sixth_left_by'),
      sql<Date>`clock_timestamp()`.as('now'),
    ])
    .where('account_id', '=', accountId)
    .executeTakeFirst();
  const at = row?.now ?? new Date();
  const sixthLatest = row?.sixth_latest ?? null;
  if (sixthLatest === null) {
    // Given back meanwhile: ask again in a moment.
    return { freeAt: new Date(at.getTime() + 1_000), known: false };
  }
  if (sixthLatest <= at) {
    return { freeAt: new Date(sixthLatest.getTime() + window.windowMs), known: true };
  }
  const earliest = (row?.sixth_left_by?.getTime() ?? 0) + window.windowMs;
  return {
    freeAt: new Date(earliest > at.getTime() ? earliest : at.getTime() + INIT_IN_FLIGHT_RECHECK_MS),
    known: false,
  };
}

export interface RateLedgerOptions {
  confirmBatch?: Partial<CoalescerOptions<ConfirmItem>>;
  settleBatch?: Partial<CoalescerOptions<SettleItem>>;
  /** Starts counted per window (default DEFAULT_START_WINDOW's). */
  startsPerWindow?: number;
  /**
   * The platform's window (default DEFAULT_START_WINDOW's); shorter only against a sandbox
   * counting over a shorter one (TIKTOK_SANDBOX_RATE_LIMIT_WINDOW_MS).
   */
  startWindowMs?: number;
  /**
   * Where the confirmations go (DatabaseHandle.urgentDb): ahead of the other runs' statements,
   * whose queue at a due instant is the inits' own lateness otherwise. Default `db`.
   */
  urgentDb?: Kysely<Database>;
}

export function createRateLedger(db: Kysely<Database>, clock: DbClock, options: RateLedgerOptions) {
  const window = {
    starts: options.startsPerWindow ?? DEFAULT_START_WINDOW.starts,
    windowMs: initWindowMs(options.startWindowMs ?? DEFAULT_START_WINDOW.windowMs),
  };
  const urgentDb = options.urgentDb ?? db;
  const confirmCoalesced = createCoalescer(
    (items: ConfirmItem[]) => confirmBatch(urgentDb, items, window.windowMs, clock),
    {
      maxBatch: CONFIRM_BATCH_MAX,
      windowMs: CONFIRM_BATCH_WINDOW_MS,
      maxInFlight: CONFIRM_BATCHES_IN_FLIGHT,
      ...options.confirmBatch,
      // An account's slots of one rank in one batch: batches out at once wait for each other's
      // locks only where an account has slots of several ranks waiting.
      groupOf: (item) => item.slot.accountId,
      // Accounts' earliest inits first (InitSlot.rank): the inits of their next windows are
      // paced a window after these are answered, and the ranks after them gate nothing sooner.
      priorityOf: (item) => item.slot.rank ?? 0,
    },
  );
  const settleCoalesced = createCoalescer((items: SettleItem[]) => settleBatch(db, items), {
    ...SETTLE_BATCH,
    ...options.settleBatch,
    groupOf: (item) => item.slot.accountId,
  });
  return {
    reserveInit: (accountId: string, aheadMs = 0) =>
      reserveSlot(db, clock, window, accountId, aheadMs),

    /**
     * The request is about to leave: its slot is stamped INIT_FLIGHT_MS from now, and the post's
     * `init_started_at` is set, in one round trip. `stamp` is the slot's new stamp (null: reserved
     * so long ago that it lapsed; nothing was written, and it must not be sent on it), `marked`
     * whether the post was still ours; a slot confirmed for a post no longer ours is the caller's
     * to release.
     *
     * A prepared run (`seenUpdatedAt`: the claim left the post pending) is marked only if the post
     * is still pending, unchanged since its claim (an edit, a reschedule or a cancel changes
     * `updated_at`) and due within CONFIRM_LEAD_MS by the database's clock; it then becomes
     * 'publishing', and `dueBy` says from when it may be sent. `earlyMs`: it is unchanged but
     * due later than that, and may be confirmed in this many milliseconds (nothing was marked).
     *
     * Calls made together in this process (within CONFIRM_BATCH_WINDOW_MS, or while
     * CONFIRM_BATCHES_IN_FLIGHT statements are out) go to the database together, one statement
     * per CONFIRM_BATCH_MAX (confirmBatch), each answered as above; a statement that fails fails
     * each of its calls with its error.
     */
    confirmAndMarkInit(
      slot: InitSlot,
      postId: string,
      owner: string,
      startedAt: Date,
      seenUpdatedAt?: string,
    ): Promise<ConfirmAnswer> {
      return confirmCoalesced({ slot, postId, owner, startedAt, seenUpdatedAt });
    },

    /**
     * TikTok answered: the slot counts from the answer's arrival on (`answeredByMs`, else now), no
     * longer ahead. Returns the slot's new stamp
     * (null: it had lapsed), which names it from now on: a caller that kept the old one would
     * find no such slot when it confirms again (a retry after a refreshed token). `refused`: the
     * answer was an error, so TikTok created nothing and the post's `init_started_at` is cleared
     * in the same statement (while `owner` holds it): no init of this post is in flight any more.
     */
    /**
     * TikTok answered the init on `slot`: the slot's stamp moves to the answer's arrival (see
     * settleBatch); with `record`, the post gets TikTok's publish id and upload URL in the same
     * statement, and `recorded` says whether `record.owner` still held it. Calls from one
     * process go to the database in batches (SETTLE_BATCH), as confirmations do.
     */
    settleInit(slot: InitSlot, settle: Omit<SettleItem, 'slot'> = {}): Promise<SettleAnswer> {
      return settleCoalesced({ slot, ...settle });
    },

    /** Nothing was sent on the slot (the post failed, was postponed or taken): it frees at once. */
    async releaseInit(slot: InitSlot): Promise<void> {
      await db
        .updateTable('tiktok_init_pacing')
        .set({
          recent_inits: sql<Date[]>`array_remove(recent_inits, ${slot.stamp}::timestamptz)`,
        })
        .where('account_id', '=', slot.accountId)
        .execute();
    },
  };
}
