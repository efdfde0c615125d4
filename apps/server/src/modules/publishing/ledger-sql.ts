// The per-account rate ledger's SQL: one row per account holding the stamps of its recent
// starts, each a slot (decision 039). Shared by the reservation, the confirmations and the settles.
import { sql, type Expression } from 'kysely';
import { ms } from './sql-instants.ts';

/**
 * An init not yet answered counts as if answered this long after its reservation (and again after
 * its send): the client's 30 s request timeout and slack. If the process dies with it in flight,
 * its slot frees itself at most this plus the window later.
 */
export const INIT_FLIGHT_MS = 45_000;

/**
 * A start's slot reserved in the account's rate ledger (table `tiktok_init_pacing`): the stamp
 * (microseconds, as text) that names it.
 */
export interface InitSlot {
  accountId: string;
  stamp: string;
  /**
   * How many of the account's inits its window counted before this one when it was reserved (0:
   * the first). The account's next window waits on its earliest inits: at a due instant, lower
   * ranks are confirmed first (the confirmation batches' `priorityOf`), so they are answered first.
   */
  rank?: number;
}

/** The stamps column; qualified where ON CONFLICT would make it ambiguous with `excluded`. */
export const stamps = sql.ref<Date[]>('tiktok_init_pacing.recent_inits');
/**
 * The account's inits TikTok may still be counting (stamps are never before their answer), in our
 * window of `windowMs` (initWindowMs).
 */
export const countedWithin = (windowMs: number, column: Expression<Date[]> = stamps) =>
  sql<
    Date[]
  >`array(select t from unnest(${column}) t where t > clock_timestamp() - ${ms(windowMs)} order by t)`;
/**
 * A new stamp, INIT_FLIGHT_MS ahead: unique on the row (one microsecond past any later one), so
 * that replacing or removing it by value touches this slot only. `nth` (1, 2, …): the stamps of
 * several slots made in one statement, each a microsecond past the one before.
 */
export const provisionalStamp = (
  column: Expression<Date[]> = stamps,
  nth: Expression<number> = sql<number>`1`,
) => sql<Date>`greatest(clock_timestamp() + ${ms(INIT_FLIGHT_MS)} + (${nth} - 1) * interval '1 microsecond',
  (select max(t) from unnest(${column}) t) + ${nth} * interval '1 microsecond')`;

/**
 * In a batch statement over an `input` of accounts' slots: their pacing rows, locked in account
 * order, so that two processes' batches over the same accounts queue behind each other instead
 * of deadlocking.
 */
export const pacingRowsLocked = sql`select account_id, recent_inits from tiktok_init_pacing
  where account_id in (select account_id from input)
  order by account_id for no key update`;
/**
 * In a batch statement with `pacing_locked` and `slots` (account_id, old, new): each slot's stamp
 * replaced by its new one in place, each account's row written once. The accounts' stamps are
 * joined with the slots as sets: a correlated scan of `slots` for each stamp made a batch of n
 * slots cost n² (600 scans of 100 rows for a full confirmation batch). The locked rows are the
 * ones written: no other statement can change them in between.
 */
export const restampedSlots = sql`update tiktok_init_pacing
  set recent_inits = rebuilt.stamps
  from (select l.account_id, array_agg(coalesce(s.new, u.t) order by u.n) as stamps
      from pacing_locked l
        cross join lateral unnest(l.recent_inits) with ordinality u(t, n)
        left join slots s on s.account_id = l.account_id and s.old = u.t
      where l.account_id in (select account_id from slots)
      group by l.account_id) rebuilt
  where tiktok_init_pacing.account_id = rebuilt.account_id
  returning tiktok_init_pacing.account_id`;
