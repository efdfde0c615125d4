import { sql, type Kysely } from 'kysely';
import { prepared } from '../../db/prepared.ts';
import type { Database } from '../../db/schema.ts';
import { pacingRowsLocked, restampedSlots, type InitSlot } from './ledger-sql.ts';
import { microsecond } from './sql-instants.ts';

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
export async function settleBatch(
  db: Kysely<Database>,
  items: SettleItem[],
): Promise<SettleAnswer[]> {
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
