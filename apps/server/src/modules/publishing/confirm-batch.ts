import { sql, type Kysely } from 'kysely';
import { prepared } from '../../db/prepared.ts';
import type { Database } from '../../db/schema.ts';
import type { DbClock } from './db-clock.ts';
import {
  countedWithin,
  pacingRowsLocked,
  provisionalStamp,
  restampedSlots,
  type InitSlot,
} from './ledger-sql.ts';
import { CONFIRM_LEAD_MS } from './run-leads.ts';
import { clockReading, epochMsOf, ms } from './sql-instants.ts';

/**
 * Confirmations (confirmAndMarkInit) made in one process within this window, or while earlier
 * batches are out, go to the database as one statement (decision 039): all prepared runs of a
 * process confirm at their posts' due instant, and a statement each would queue for the pool's 10
 * connections. A window's paced inits confirm a few milliseconds apart over a second,
 * CONFIRM_LEAD_MS before each leaves: sent at the next turn of the event loop, each would go
 * alone. The 50 ms
 * come out of the lead of a prepared run; a run that was not prepared waits them before its init.
 */
export const CONFIRM_BATCH_WINDOW_MS = 50;
/** The most confirmations in one statement. */
export const CONFIRM_BATCH_MAX = 100;
/**
 * Confirmation statements out at once per process; calls made meanwhile gather for the next ones.
 * Under the pool's 10 connections, which the runs' other statements share.
 */
export const CONFIRM_BATCHES_IN_FLIGHT = 4;

/** One confirmAndMarkInit call, as the batch statement takes it. */
export interface ConfirmItem {
  slot: InitSlot;
  postId: string;
  owner: string;
  startedAt: Date;
  seenUpdatedAt: string | undefined;
}

/**
 * `stamp`: the slot's new stamp (null: it had lapsed, nothing was written); `marked`: the post's
 * init is marked as started; `earlyMs`: a prepared post unchanged but not confirmable yet (more
 * than CONFIRM_LEAD_MS before its due time) for this much longer.
 */
export interface ConfirmAnswer {
  stamp: string | null;
  marked: boolean;
  earlyMs: number | null;
  /**
   * A marked prepared post's due time on the database's clock (epoch ms, to the microsecond): a
   * run confirmed ahead of it (CONFIRM_LEAD_MS) sends once the database's clock reads it
   * (DbClock.localWhen), never before. Null for other runs: they are due.
   */
  dueAtMs: number | null;
}

/**
 * confirmAndMarkInit for several posts in one statement, each answered as if alone: per item, the
 * slot is re-stamped INIT_FLIGHT_MS from now if still counted, and the post marked (and made
 * 'publishing') if its lease is `owner`'s and, for a prepared run, it is pending, unchanged since
 * the claim and due. An account may have several items: its new stamps are one microsecond apart,
 * past every stamp it has, and its row is written once. The accounts' pacing rows are locked in
 * account order first, so that two processes' batches over the same accounts queue behind each
 * other instead of deadlocking (the coalescer groups an account's items in one batch, so that a
 * process's own batches do not).
 */
export async function confirmBatch(
  db: Kysely<Database>,
  items: ConfirmItem[],
  windowMs: number,
  clock: DbClock,
): Promise<ConfirmAnswer[]> {
  const input = JSON.stringify(
    items.map((item, idx) => ({
      idx,
      account_id: item.slot.accountId,
      stamp: item.slot.stamp,
      post_id: item.postId,
      owner: item.owner,
      started_at: item.startedAt.toISOString(),
      seen: item.seenUpdatedAt ?? null,
    })),
  );
  // Unchanged since a prepared run's claim (seen: its `updated_at`; null for other runs).
  const unchanged = sql<boolean>`(i.seen is not null and posts.status = 'pending'
    and posts.updated_at = i.seen)`;
  // now(): one instant for both tests, so that a post is either confirmable or early, never
  // neither. A prepared post is confirmed up to CONFIRM_LEAD_MS before its due time.
  const confirmableBy = sql<Date>`now() + ${ms(CONFIRM_LEAD_MS)}`;
  // The statement's reading of the database's clock (DbClock) is statement_timestamp(), before
  // any wait for the accounts' row locks, paired with the local instant just before it was sent,
  // once a connection is in hand: neither a wait for the pool nor one for the locks widens its
  // upper bound (under a burst, both are most of a confirmation's time, and the answer's stamp,
  // and the account's next slot, would come that much later).
  const lockedStamps = sql.ref<Date[]>('l.recent_inits');
  /** Which of its account's items in this batch (1, 2, …): its new stamp's place. */
  const nthOfAccount = sql<number>`row_number() over (partition by i.account_id order by i.idx)`;
  const statement = sql<{
    idx: number;
    stamp: string | null;
    marked: boolean;
    early_ms: number | null;
    due_at_ms: number | null;
    db_ms: number;
  }>`${prepared('confirm_inits')}
    with input as (
      select * from jsonb_to_recordset(${input}::jsonb) as i(idx int, account_id uuid,
        stamp timestamptz, post_id uuid, owner text, started_at timestamptz, seen timestamptz)
    ), pacing_locked as (
      ${pacingRowsLocked}
    ), slots as (
      select i.idx, i.account_id, i.stamp as old,
        ${provisionalStamp(lockedStamps, nthOfAccount)} as new
      from input i join pacing_locked l on l.account_id = i.account_id
      where i.stamp = any(${countedWithin(windowMs, lockedStamps)})
    ), confirmed as (
      ${restampedSlots}
    ), marked as (
      update posts set init_started_at = i.started_at, status = 'publishing'
      from input i
      where posts.id = i.post_id and posts.lease_owner = i.owner
        and i.idx in (select idx from slots)
        and (posts.status = 'publishing' or (${unchanged} and posts.due_at <= ${confirmableBy}))
      returning i.idx, case when i.seen is not null
        then ${epochMsOf(sql.ref('posts.due_at'))} end as due_at_ms
    ), early as (
      select i.idx, ceil(extract(epoch from posts.due_at - ${confirmableBy}) * 1000)::int as ms
      from input i join posts on posts.id = i.post_id
      where posts.lease_owner = i.owner and ${unchanged} and posts.due_at > ${confirmableBy}
    )
    select i.idx, s.new::text as stamp, m.idx is not null as marked, e.ms as early_ms,
      m.due_at_ms, ${clockReading} as db_ms
    from input i
      left join slots s on s.idx = i.idx
      left join marked m on m.idx = i.idx
      left join early e on e.idx = i.idx
    order by i.idx
  `;
  const { result, sentAt } = await db.connection().execute(async (connection) => {
    const sentAt = performance.now();
    return { result: await statement.execute(connection), sentAt };
  });
  const receivedAt = performance.now();
  const [first] = result.rows;
  if (first) clock.observe(first.db_ms, sentAt, receivedAt);
  const byIndex = new Map(result.rows.map((row) => [row.idx, row]));
  return items.map((_item, idx) => {
    const row = byIndex.get(idx);
    return {
      stamp: row?.stamp ?? null,
      marked: row?.marked === true,
      earlyMs: row?.early_ms ?? null,
      dueAtMs: row?.marked === true ? (row.due_at_ms ?? null) : null,
    };
  });
}
