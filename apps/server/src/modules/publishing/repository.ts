import { sql, type Expression, type Kysely, type Updateable } from 'kysely';
import {
  heldBy,
  holdLease,
  leaseFree,
  leaseStatements,
  noLease,
  type Lease,
} from '../../db/lease.ts';
import { prepared } from '../../db/prepared.ts';
import type { PostToPublish } from '../../platforms/driver.ts';
import type { Database } from '../../db/schema.ts';
import '../schedules/db-types.ts';
import type { PostTable } from '../schedules/db-types.ts';
import type { PostRow } from '../schedules/repository.ts';
import type { GrantSource } from '../accounts/token-service.ts';
import { createCoalescer, type CoalescerOptions } from '../../lib/coalescer.ts';
import { createDbClock, type DbClock } from './db-clock.ts';

/** TikTok: 6 video inits per minute per access token, counted over a sliding 60 s window. */
export const INITS_PER_WINDOW = 6;
/** TikTok's own window (its rate-limit page: a sliding one-minute window). */
export const TIKTOK_INIT_WINDOW_MS = 60_000;
/**
 * Added to TikTok's window. The stamps it is measured between are already on the safe side (the
 * reservation of a new init, the answer to an old one), so this only covers how TikTok rounds its
 * window's edge, which it does not document.
 */
export const INIT_WINDOW_MARGIN_MS = 1_000;
/**
 * Our window: an init counts until this long after its answer (docs/decisions/039), TikTok's
 * `tiktokWindowMs` (TIKTOK_INIT_WINDOW_MS; a sandbox's shorter one in tests) plus the margin.
 */
export const initWindowMs = (tiktokWindowMs: number) => tiktokWindowMs + INIT_WINDOW_MARGIN_MS;
/**
 * An init not yet answered counts as if answered this long after its reservation (and again after
 * its send): the client's 30 s request timeout and slack. If the process dies with it in flight,
 * its slot frees itself at most this plus the window later.
 */
export const INIT_FLIGHT_MS = 45_000;
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
 * A pending post's run starts this long before its due time (decision 039): the reservation, the claim, the daily cap, the storage check, the token and creator_info
 * are done by then, and only the slot's confirmation (CONFIRM_LEAD_MS before) and the video init
 * remain. Preparing thousands of posts due in the same second holds a small machine's cores for
 * seconds, so the lead leaves room for the whole burst to be prepared (a shorter one left some
 * runs unprepared, and their inits late). A post not prepared in time simply goes without waiting. Short against INIT_FLIGHT_MS (a reservation
 * made this early is still counted when it is confirmed) and against what a creator could notice:
 * the post stays pending, editable and cancellable until its confirmation, a second before.
 */
export const PREPARE_LEAD_MS = 20_000;

/**
 * A prepared run confirms its slot and marks its post this long before the due time, then waits
 * for the due instant by the database's clock and sends (decision 039): the statements of a burst's
 * confirmations take a noticeable time at a due instant, and every init would wait behind them. From the confirmation on, the post is 'publishing': an edit or a
 * cancel in this last second is answered as for a post being published, and a process that dies
 * in it leaves the init's outcome unknown (never sent twice), as one dying while its request is
 * out does.
 */
export const CONFIRM_LEAD_MS = 1_000;

/** An init slot reserved in `tiktok_init_pacing`: the stamp (microseconds, as text) that names it. */
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

/** A claimed post with what publishing it needs: the video and the schedule's settings. */
export type PublishRow = PostRow &
  PostToPublish & {
    storage_key: string;
    content_type: string;
    /** Whose days the daily cap counts in: the user's time zone, else the schedule's. */
    zone?: string;
    /** The account's token columns as the claim read them (null: no account). */
    account_status?: GrantSource['status'] | null;
    access_token_enc?: string | null;
    refresh_token_enc?: string | null;
    access_token_expires_at?: Date | null;
    /** The due time on the database's clock (epoch ms, to the microsecond), as the claim read it. */
    due_at_ms?: number;
    /** `updated_at` as the claim saw it, to the microsecond: an edit since changes it. */
    seen_updated_at?: string;
  };

const now = () => sql<Date>`clock_timestamp()`;
const ms = (value: number) => sql`${`${value} milliseconds`}::interval`;
const microsecond = sql`interval '1 microsecond'`;
/**
 * An instant as the publisher takes it from the database: epoch milliseconds, to the microsecond
 * (DbClock's readings, due times, the moment a slot frees).
 */
const epochMsOf = (instant: Expression<unknown>) =>
  sql<number>`(extract(epoch from ${instant}) * 1000)::float8`;
/**
 * The database's clock when the statement started, for DbClock.observe: read after the
 * statement left and before its answer arrived.
 */
const clockReading = epochMsOf(sql`statement_timestamp()`);
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

/** The stamps column; qualified where ON CONFLICT would make it ambiguous with `excluded`. */
const stamps = sql.ref<Date[]>('tiktok_init_pacing.recent_inits');
/**
 * The account's inits TikTok may still be counting (stamps are never before their answer), in our
 * window of `windowMs` (initWindowMs).
 */
const countedWithin = (windowMs: number, column: Expression<Date[]> = stamps) =>
  sql<
    Date[]
  >`array(select t from unnest(${column}) t where t > clock_timestamp() - ${ms(windowMs)} order by t)`;
/**
 * A new stamp, INIT_FLIGHT_MS ahead: unique on the row (one microsecond past any later one), so
 * that replacing or removing it by value touches this slot only. `nth` (1, 2, …): the stamps of
 * several slots made in one statement, each a microsecond past the one before.
 */
const provisionalStamp = (
  column: Expression<Date[]> = stamps,
  nth: Expression<number> = sql<number>`1`,
) => sql<Date>`greatest(clock_timestamp() + ${ms(INIT_FLIGHT_MS)} + (${nth} - 1) * interval '1 microsecond',
  (select max(t) from unnest(${column}) t) + ${nth} * interval '1 microsecond')`;

/**
 * In a batch statement over an `input` of accounts' slots: their pacing rows, locked in account
 * order, so that two processes' batches over the same accounts queue behind each other instead
 * of deadlocking.
 */
const pacingRowsLocked = sql`select account_id, recent_inits from tiktok_init_pacing
  where account_id in (select account_id from input)
  order by account_id for no key update`;
/**
 * In a batch statement with `pacing_locked` and `slots` (account_id, old, new): each slot's stamp
 * replaced by its new one in place, each account's row written once. The accounts' stamps are
 * joined with the slots as sets: a correlated scan of `slots` for each stamp made a batch of n
 * slots cost n² (600 scans of 100 rows for a full confirmation batch). The locked rows are the
 * ones written: no other statement can change them in between.
 */
const restampedSlots = sql`update tiktok_init_pacing
  set recent_inits = rebuilt.stamps
  from (select l.account_id, array_agg(coalesce(s.new, u.t) order by u.n) as stamps
      from pacing_locked l
        cross join lateral unnest(l.recent_inits) with ordinality u(t, n)
        left join slots s on s.account_id = l.account_id and s.old = u.t
      where l.account_id in (select account_id from slots)
      group by l.account_id) rebuilt
  where tiktok_init_pacing.account_id = rebuilt.account_id
  returning tiktok_init_pacing.account_id`;

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
async function confirmBatch(
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

/**
 * Settles (settleInit) made in one process go to the database in batches like confirmations
 * (decision 039): every init answered in a burst settles, and its post records TikTok's publish
 * id, in the same statement. On the main pool: the stamp comes from the answer's arrival
 * (`answeredByMs`), not from when the statement runs, and only the upload waits for it.
 *
 * The first answer of a batch waits `windowMs` for others: a burst's answers arrive a few at a
 * time over a second, and sent at the next turn of the event loop they would go a few to a
 * statement, whose cost to PostgreSQL takes CPU from the inits still queued. 50 ms adds nothing an upload would notice.
 */
export const SETTLE_BATCH = { maxBatch: 100, windowMs: 50, maxInFlight: 4 } as const;

/** What a video init's answer writes on the post (FILE_UPLOAD): what its upload resumes from. */
export interface InitRecord {
  postId: string;
  owner: string;
  publishId: string;
  uploadUrl: string;
  uploadUrlExpiresAt: Date;
  videoSize: number;
  chunkSize: number;
  totalChunkCount: number;
}

/** One settleInit call, as the batch statement takes it. */
export interface SettleItem {
  slot: InitSlot;
  /**
   * The latest the answer can have arrived by the database's clock (epoch ms, DbClock.latestAt):
   * the stamp, when earlier than the statement's own time. Without it, the statement's time.
   */
  answeredByMs?: number;
  /** TikTok refused the init: the post's init_started_at is cleared (nothing is in flight). */
  refused?: { postId: string; owner: string };
  /** TikTok accepted it: its publish id and upload URL, written on the post. */
  record?: InitRecord;
}

/**
 * `stamp`: the slot's new stamp (null: it had lapsed, nothing was written to it); `recorded`: the
 * item's `record` was written (its owner still held the post).
 */
export interface SettleAnswer {
  stamp: string | null;
  recorded: boolean;
}

/**
 * settleInit for several slots in one statement. Each slot still on its account's row is
 * re-stamped with its answer's arrival (never after the statement's time): a slot names itself by
 * its stamp, so an account's stamps stay distinct. Those of one batch are a microsecond apart at
 * least, in their order of arrival (the k-th of an account: the latest of `arrival + (k - i) µs`
 * over its i-th ≤ k-th, each as near its arrival as that allows). Should one of them fall on a
 * stamp the row keeps (the same microsecond: rare), the account's slots of the batch go past the
 * latest settled stamp instead, later than their arrival by at most the milliseconds one
 * account's answers arrive apart: a slot is never counted shorter than from its answer. A
 * provisional stamp (INIT_FLIGHT_MS ahead: an init in flight) is never reached; one within a
 * second of its end counts as settled. Refusals clear their post's init_started_at, records write
 * theirs, both only for the lease's owner. The rows are locked in account order first.
 */
async function settleBatch(db: Kysely<Database>, items: SettleItem[]): Promise<SettleAnswer[]> {
  const input = JSON.stringify(
    items.map((item, idx) => ({
      idx,
      account_id: item.slot.accountId,
      stamp: item.slot.stamp,
      arrived_ms: item.answeredByMs ?? null,
      refused_post: item.refused?.postId ?? null,
      refused_owner: item.refused?.owner ?? null,
      post_id: item.record?.postId ?? null,
      owner: item.record?.owner ?? null,
      publish_id: item.record?.publishId ?? null,
      upload_url: item.record?.uploadUrl ?? null,
      upload_url_expires_at: item.record?.uploadUrlExpiresAt.toISOString() ?? null,
      video_size: item.record?.videoSize ?? null,
      chunk_size: item.record?.chunkSize ?? null,
      total_chunk_count: item.record?.totalChunkCount ?? null,
    })),
  );
  const result = await sql<{
    idx: number;
    stamp: string | null;
    recorded: boolean;
  }>`${prepared('settle_inits')}
    with input as (
      select * from jsonb_to_recordset(${input}::jsonb) as i(idx int, account_id uuid,
        stamp timestamptz, arrived_ms float8, refused_post uuid, refused_owner text,
        post_id uuid, owner text, publish_id text, upload_url text,
        upload_url_expires_at timestamptz, video_size bigint, chunk_size bigint,
        total_chunk_count int)
    ), clock as (
      select clock_timestamp() as at
    ), pacing_locked as (
      ${pacingRowsLocked}
    ), present as (
      select i.idx, i.account_id, i.stamp as old,
        least((select at from clock), coalesce(to_timestamp(i.arrived_ms / 1000),
          (select at from clock))) as arrived
      from input i join pacing_locked l on l.account_id = i.account_id
      where i.stamp = any(l.recent_inits)
    ), ranked as (
      select p.*, row_number() over (partition by p.account_id order by p.arrived, p.idx) as n
      from present p
    ), nearest as (
      select r.*, max(r.arrived - r.n * ${microsecond}) over (partition by r.account_id
          order by r.arrived, r.idx rows unbounded preceding) + r.n * ${microsecond} as new
      from ranked r
    ), kept as (
      select l.account_id, array(select t from unnest(l.recent_inits) t
        where t not in (select p.old from present p where p.account_id = l.account_id)) as stamps
      from pacing_locked l
    ), slots as (
      select n.idx, n.account_id, n.old,
        case when exists (select 1 from nearest m
            where m.account_id = n.account_id and m.new = any(k.stamps))
          then greatest(n.arrived, (select max(t) from unnest(k.stamps) t
              where t < (select at from clock) + interval '1 second') + ${microsecond})
            + (n.n - 1) * ${microsecond}
          else n.new end as new
      from nearest n join kept k on k.account_id = n.account_id
    ), settled as (
      ${restampedSlots}
    ), cleared as (
      update posts set init_started_at = null
      from input i
      where posts.id = any(array(select refused_post from input))
        and posts.id = i.refused_post and posts.lease_owner = i.refused_owner
    ), recorded as (
      update posts set publish_id = i.publish_id, upload_url = i.upload_url,
        upload_url_expires_at = i.upload_url_expires_at, video_size = i.video_size,
        chunk_size = i.chunk_size, total_chunk_count = i.total_chunk_count, uploaded_bytes = 0
      from input i
      where posts.id = any(array(select post_id from input))
        and posts.id = i.post_id and posts.lease_owner = i.owner
      returning i.idx
    )
    select i.idx, s.new::text as stamp, r.idx is not null as recorded
    from input i
      left join slots s on s.idx = i.idx
      left join recorded r on r.idx = i.idx
    order by i.idx
  `.execute(db);
  const byIndex = new Map(result.rows.map((row) => [row.idx, row]));
  return items.map((_item, idx) => ({
    stamp: byIndex.get(idx)?.stamp ?? null,
    recorded: byIndex.get(idx)?.recorded === true,
  }));
}

/**
 * The post's latest run never finished (its lease was not released) and its process died with
 * other posts running (its registration expired, its last beat said so): most likely a kill from
 * outside, not this post's doing (docs/decisions/033-kills-and-poison-posts.md). A run whose
 * process is alive, unknown, or died running this post alone is the post's own.
 */
const diedInCompany = sql<boolean>`(posts.lease_owner is not null and exists (
  select 1 from worker_processes w
  where w.id = posts.run_process and w.lease_until <= now() and w.holding > 1))`;

/** Posts a wake-up is owed to: open ones, and completed ones whose public id is still awaited. */
const awaitsWake = sql<boolean>`(status in ('pending', 'publishing') or post_id_checks is not null)`;

/** From this many deaths in company in a row, a post runs alone in its process. */
export const RUN_ALONE_AFTER_COMPANY_DEATHS = 2;

/**
 * SQL for the publisher. Every write that moves a post is conditional on the lease its caller
 * holds, so a worker that lost its lease (it stalled, another took over) changes nothing.
 */
export function createPublishingRepository(
  db: Kysely<Database>,
  options: {
    confirmBatch?: Partial<CoalescerOptions<ConfirmItem>>;
    settleBatch?: Partial<CoalescerOptions<SettleItem>>;
    /**
     * TikTok's init window (default TIKTOK_INIT_WINDOW_MS, what TikTok documents); shorter only
     * against a sandbox counting over a shorter one (TIKTOK_SANDBOX_RATE_LIMIT_WINDOW_MS).
     */
    tiktokInitWindowMs?: number;
    /**
     * Where the confirmations go (DatabaseHandle.urgentDb): ahead of the other runs' statements,
     * whose queue at a due instant is the inits' own lateness otherwise. Default `db`.
     */
    urgentDb?: Kysely<Database>;
  } = {},
) {
  const windowMs = initWindowMs(options.tiktokInitWindowMs ?? TIKTOK_INIT_WINDOW_MS);
  const counted = countedWithin(windowMs);
  const urgentDb = options.urgentDb ?? db;
  const clock = createDbClock();
  const confirmCoalesced = createCoalescer(
    (items: ConfirmItem[]) => confirmBatch(urgentDb, items, windowMs, clock),
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
  // A prepared run holds a post that is still pending (claim's `early`): a cancel, or any other
  // end of the post, stops the renewals and with them the run.
  const leases = leaseStatements(db, 'posts', 'id', {
    heldWhile: sql`status in ('pending', 'publishing')`,
  });
  return {
    /** This process's bounds of the database's clock, from the readings of its statements. */
    clock: clock as Pick<DbClock, 'localWhen' | 'latestAt'>,

    /**
     * Takes the post for `leaseMs`: a due pending post becomes 'publishing' (attempt + 1), a
     * publishing one whose lease expired is resumed. Returns undefined when there is nothing to do
     * or another worker holds it. Two workers never both get it: the UPDATE re-checks its WHERE
     * after waiting for the row lock.
     */
    async claim(
      postId: string,
      lease: Lease,
      /** The claiming process (jobs/worker-process.ts); null: one nobody will find registered. */
      processId: string | null = null,
      /**
       * A prepared run (PREPARE_LEAD_MS): a pending post due within the lead is leased but stays
       * pending, its `updated_at` unmoved: the claim writes only the run's own columns (migration
       * 0030). The creator can still edit or cancel it until `confirmAndMarkInit`, which makes it
       * 'publishing' if nothing changed.
       */
      early = false,
    ): Promise<PublishRow | undefined> {
      // One round trip: the UPDATE takes the row, the SELECT around it adds the video and settings.
      const sentAt = performance.now();
      const row = await db
        .with('claimed', (cte) =>
          cte
            .updateTable('posts')
            .set({
              ...(!early && { status: 'publishing' as const }),
              attempt: sql<number>`case when status = 'pending' then attempt + 1 else attempt end`,
              // A run that died in company hands its count to this one instead of adding to it.
              unfinished_runs: sql<number>`unfinished_runs + case when ${diedInCompany} then 0 else 1 end`,
              company_deaths: sql<number>`company_deaths + case when ${diedInCompany} then 1 else 0 end`,
              run_process: processId,
              ...holdLease(lease),
            })
            .where('id', '=', postId)
            .where((eb) =>
              early
                ? eb.and([
                    eb('status', '=', 'pending'),
                    eb('due_at', '<=', sql<Date>`clock_timestamp() + ${ms(PREPARE_LEAD_MS)}`),
                  ])
                : eb.or([
                    eb.and([eb('status', '=', 'pending'), eb('due_at', '<=', now())]),
                    eb('status', '=', 'publishing'),
                  ]),
            )
            .where(leaseFree())
            .returningAll(),
        )
        .selectFrom('claimed')
        .innerJoin('media', 'media.id', 'claimed.media_id')
        .innerJoin('schedules', 'schedules.id', 'claimed.schedule_id')
        .leftJoin('user', 'user.id', 'schedules.user_id')
        .leftJoin('tiktok_accounts', 'tiktok_accounts.id', 'claimed.account_id')
        .selectAll('claimed')
        .select([
          epochMsOf(sql.ref('claimed.due_at')).as('due_at_ms'),
          clockReading.as('db_ms'),
          sql<string>`claimed.updated_at::text`.as('seen_updated_at'),
          // The token, read here rather than by a query of its own before the init.
          'tiktok_accounts.status as account_status',
          'tiktok_accounts.access_token_enc',
          'tiktok_accounts.refresh_token_enc',
          'tiktok_accounts.access_token_expires_at',
          // The daily cap's day (daily-cap.ts): the user's zone, else the schedule's.
          sql<string>`coalesce(${sql.ref('user.timeZone')}, schedules.time_zone)`.as('zone'),
          'media.storage_key',
          'media.content_type',
          'media.size_bytes',
          'media.duration_seconds',
          'schedules.privacy_level',
          'schedules.delivery',
          'schedules.allow_comment',
          'schedules.allow_duet',
          'schedules.allow_stitch',
          'schedules.commercial_content',
          'schedules.is_aigc',
        ])
        .executeTakeFirst();
      if (row) clock.observe(row.db_ms, sentAt, performance.now());
      return row;
    },

    /**
     * Takes a completed post whose public id is still awaited and whose check is due, for one
     * status fetch; undefined when it is not (found meanwhile, not due, or held by another).
     */
    claimPostIdCheck(postId: string, lease: Lease) {
      return db
        .updateTable('posts')
        .set(holdLease(lease))
        .where('id', '=', postId)
        .where('status', '=', 'completed')
        .where('post_id_checks', 'is not', null)
        .where('wake_at', '<=', now())
        .where(leaseFree())
        .returning(['id', 'account_id', 'publish_id', 'published_at', 'post_id_checks'])
        .executeTakeFirst();
    },

    /** Extends the lease; false when it was lost (then the caller must stop touching TikTok). */
    renewLease: (postId: string, lease: Lease) => leases.renew(postId, lease),

    /** Applies `changes` while the lease is still ours; false when it is not. */
    async update(
      postId: string,
      owner: string,
      changes: Updateable<PostTable>,
      options: { release?: boolean } = {},
    ): Promise<boolean> {
      const result = await db
        .updateTable('posts')
        .set({
          ...changes,
          // Releasing ends a run the process lived through (migration 0011).
          ...(options.release === true && { ...noLease, unfinished_runs: 0, company_deaths: 0 }),
        })
        .where('id', '=', postId)
        .where(heldBy(owner))
        .executeTakeFirst();
      return result.numUpdatedRows > 0n;
    },

    /** Where the post stands, with its due time and lease judged by the database's clock. */
    findStatus(postId: string) {
      return db
        .selectFrom('posts')
        .select([
          'status',
          'account_id',
          sql<boolean>`due_at <= ${now()}`.as('due'),
          // Due within the lead: a pending post's run may start and wait for the due time.
          sql<boolean>`due_at <= ${now()} + ${ms(PREPARE_LEAD_MS)}`.as('due_soon'),
          sql<boolean>`post_id_checks is not null`.as('awaiting_post_id'),
          sql<boolean>`not ${leaseFree()}`.as('leased'),
          // Its latest run never released it: the process died, or the job was abandoned.
          sql<boolean>`lease_owner is not null`.as('last_run_unfinished'),
          sql<boolean>`wake_at <= ${now()}`.as('woken'),
          // What its next claim will make of its latest run (see diedInCompany).
          sql<boolean>`company_deaths + case when ${diedInCompany} then 1 else 0 end >= ${RUN_ALONE_AFTER_COMPANY_DEATHS}`.as(
            'runs_alone',
          ),
        ])
        .where('id', '=', postId)
        .executeTakeFirst();
    },

    /**
     * Reserves one of the account's video inits (decision 039): `{ slot }` when reserved, else
     * `{ freeAt }`, when to ask again. The window is one array of stamps on the account's row and
     * every change is one UPDATE of that row, so concurrent processes queue on its lock and each
     * re-reads the array after the wait: at most INITS_PER_WINDOW are ever counted. A reserved
     * init is stamped INIT_FLIGHT_MS ahead (it counts at least that long, even if its process
     * dies), `confirmAndMarkInit` stamps it again just before the request leaves, and `settleInit` puts
     * the time of TikTok's answer once it is in: TikTok counted the request before that moment,
     * so the next init goes out at least our window after TikTok's count of this one.
     */
    async reserveInit(
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
        where t > clock_timestamp() + ${ms(aheadMs)} - ${ms(windowMs)})`;
      /** The others' sixth latest stamp: ours may go a window after it (none: at once). */
      const others = sql`${stamps}[1:cardinality(${stamps}) - 1]`;
      const othersSixthLatest = sql<Date | null>`(select t from unnest(${others}) t
        order by t desc offset ${INITS_PER_WINDOW - 1} limit 1)`;
      /** When our slot frees: a window after the others' sixth latest stamp. */
      const freesAt = sql<Date | null>`${othersSixthLatest} + ${ms(windowMs)}`;
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
            .doUpdateSet({ recent_inits: sql<Date[]>`${counted} || ${provisionalStamp()}` })
            .where(sql<number>`cardinality(${countedThen})`, '<', INITS_PER_WINDOW),
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
            order by t desc offset ${INITS_PER_WINDOW - 1} limit 1)`.as('sixth_latest'),
          sql<Date | null>`(select left_by from (select case when t > clock_timestamp()
              then t - ${ms(INIT_FLIGHT_MS)} else t end as left_by from unnest(recent_inits) t) s
            order by left_by desc offset ${INITS_PER_WINDOW - 1} limit 1)`.as('sixth_left_by'),
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
        return { freeAt: new Date(sixthLatest.getTime() + windowMs), known: true };
      }
      const earliest = (row?.sixth_left_by?.getTime() ?? 0) + windowMs;
      return {
        freeAt: new Date(
          earliest > at.getTime() ? earliest : at.getTime() + INIT_IN_FLIGHT_RECHECK_MS,
        ),
        known: false,
      };
    },

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
     * Ends a prepared run that sent nothing (the post was edited, cancelled or deleted, or the
     * run stopped) while `owner` still holds the post: the lease is freed and the run forgotten
     * (no attempt, no unfinished run). Returns the post's status and due time when it was still
     * ours, so that a pending post is woken again at its (maybe new) time.
     */
    async releasePrepared(postId: string, owner: string) {
      return db
        .updateTable('posts')
        .set({
          ...noLease,
          unfinished_runs: 0,
          company_deaths: 0,
          attempt: sql<number>`case when status = 'pending' then greatest(attempt - 1, 0) else attempt end`,
        })
        .where('id', '=', postId)
        .where(heldBy(owner))
        .where('init_started_at', 'is', null)
        .returning(['status', 'due_at'])
        .executeTakeFirst();
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

    /** Open posts whose wake-up falls within `horizonMs` (or is past): for the wake-up timers. */
    wakingWithin(horizonMs: number) {
      return db
        .selectFrom('posts')
        .select(['id', 'wake_at', 'status', 'due_at'])
        .where(awaitsWake)
        .where('wake_at', '<=', sql<Date>`clock_timestamp() + ${ms(horizonMs)}`)
        .execute();
    },

    /**
     * Posts whose wake-up should have happened more than `graceMs` ago (and whose lease, if any,
     * has expired or will): their job was lost. Marks them as re-queued and returns when to wake
     * each (after any lease still held by a worker that may be dead).
     */
    async takeForgotten(graceMs: number, limit = 500): Promise<{ id: string; wakeAt: Date }[]> {
      const rows = await db
        .updateTable('posts')
        .set({
          wake_at: sql<Date>`greatest(clock_timestamp(), coalesce(lease_until, clock_timestamp()))`,
        })
        .where('id', 'in', (eb) =>
          eb
            .selectFrom('posts')
            .select('id')
            .where(awaitsWake)
            .where('wake_at', '<=', sql<Date>`clock_timestamp() - ${ms(graceMs)}`)
            .orderBy('wake_at')
            .limit(limit),
        )
        .returning(['id', 'wake_at'])
        .execute();
      return rows.map((row) => ({ id: row.id, wakeAt: row.wake_at }));
    },
  };
}

export type PublishingRepository = ReturnType<typeof createPublishingRepository>;
