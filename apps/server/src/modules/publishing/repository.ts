import { sql, type Kysely, type Updateable } from 'kysely';
import type { CommercialContent, Delivery } from '@cadence/shared/schemas/schedule';
import {
  heldBy,
  holdLease,
  leaseFree,
  leaseStatements,
  noLease,
  type Lease,
} from '../../db/lease.ts';
import type { Database } from '../../db/schema.ts';
import '../schedules/db-types.ts';
import type { PostTable } from '../schedules/db-types.ts';
import type { PostRow } from '../schedules/repository.ts';

/** TikTok: 6 video inits per minute per access token. */
export const INITS_PER_WINDOW = 6;
/** A second of slack over TikTok's minute, for clock differences between us and TikTok. */
export const INIT_WINDOW_MS = 61_000;

/** A claimed post with what publishing it needs: the video and the schedule's TikTok settings. */
export type PublishRow = PostRow & {
  storage_key: string;
  content_type: string;
  size_bytes: number;
  duration_seconds: number;
  /** Null for inbox drafts. */
  privacy_level: string | null;
  delivery: Delivery;
  allow_comment: boolean;
  allow_duet: boolean;
  allow_stitch: boolean;
  commercial_content: CommercialContent;
  is_aigc: boolean;
};

const now = () => sql<Date>`clock_timestamp()`;

/**
 * The post's latest run never finished (its lease was not released) and its process died with
 * other posts running (its registration expired, its last beat said so): most likely a kill from
 * outside, not this post's doing (docs/decisions/033-kills-and-poison-posts.md). A run whose
 * process is alive, unknown, or died running this post alone is the post's own.
 */
const diedInCompany = sql<boolean>`(posts.lease_owner is not null and exists (
  select 1 from worker_processes w
  where w.id = posts.run_process and w.lease_until <= now() and w.holding > 1))`;

/** From this many deaths in company in a row, a post runs alone in its process. */
export const RUN_ALONE_AFTER_COMPANY_DEATHS = 2;

/**
 * SQL for the publisher. Every write that moves a post is conditional on the lease its caller
 * holds, so a worker that lost its lease (it stalled, another took over) changes nothing.
 */
export function createPublishingRepository(db: Kysely<Database>) {
  const leases = leaseStatements(db, 'posts', 'id', { heldWhile: sql`status = 'publishing'` });
  return {
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
    ): Promise<PublishRow | undefined> {
      const claimed = await db
        .updateTable('posts')
        .set({
          status: 'publishing',
          attempt: sql<number>`case when status = 'pending' then attempt + 1 else attempt end`,
          // A run that died in company hands its count to this one instead of adding to it.
          unfinished_runs: sql<number>`unfinished_runs + case when ${diedInCompany} then 0 else 1 end`,
          company_deaths: sql<number>`company_deaths + case when ${diedInCompany} then 1 else 0 end`,
          run_process: processId,
          ...holdLease(lease),
          updated_at: sql<Date>`case when status = 'pending' then clock_timestamp() else updated_at end`,
        })
        .where('id', '=', postId)
        .where((eb) =>
          eb.or([
            eb.and([eb('status', '=', 'pending'), eb('due_at', '<=', now())]),
            eb('status', '=', 'publishing'),
          ]),
        )
        .where(leaseFree())
        .returning('id')
        .executeTakeFirst();
      if (!claimed) return undefined;
      return db
        .selectFrom('posts')
        .innerJoin('media', 'media.id', 'posts.media_id')
        .innerJoin('schedules', 'schedules.id', 'posts.schedule_id')
        .selectAll('posts')
        .select([
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
        .where('posts.id', '=', postId)
        .executeTakeFirst();
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
      options: { release?: boolean; touch?: boolean } = {},
    ): Promise<boolean> {
      const result = await db
        .updateTable('posts')
        .set({
          ...changes,
          // Releasing ends a run the process lived through (migration 0011).
          ...(options.release === true && { ...noLease, unfinished_runs: 0, company_deaths: 0 }),
          ...(options.touch !== false && { updated_at: now() }),
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
     * Reserves one of the account's video inits for now. Returns null when reserved, else the
     * time a slot frees up. One UPDATE on the account's row: concurrent workers queue on its lock.
     */
    async reserveInit(accountId: string): Promise<Date | null> {
      await db
        .insertInto('tiktok_init_pacing')
        .values({ account_id: accountId })
        .onConflict((oc) => oc.column('account_id').doNothing())
        .execute();
      const windowStart = sql`clock_timestamp() - ${`${INIT_WINDOW_MS} milliseconds`}::interval`;
      const recent = sql<
        Date[]
      >`array(select t from unnest(recent_inits) t where t > ${windowStart})`;
      const reserved = await db
        .updateTable('tiktok_init_pacing')
        .set({ recent_inits: sql<Date[]>`${recent} || clock_timestamp()` })
        .where('account_id', '=', accountId)
        .where(sql<number>`cardinality(${recent})`, '<', INITS_PER_WINDOW)
        .returning('account_id')
        .executeTakeFirst();
      if (reserved) return null;
      const row = await db
        .selectFrom('tiktok_init_pacing')
        .select(
          sql<Date | null>`(select min(t) from unnest(recent_inits) t where t > ${windowStart}) + ${`${INIT_WINDOW_MS} milliseconds`}::interval`.as(
            'free_at',
          ),
        )
        .where('account_id', '=', accountId)
        .executeTakeFirst();
      return row?.free_at ?? new Date(Date.now() + 1000);
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
            .where((eb) =>
              eb.or([
                eb('status', 'in', ['pending', 'publishing']),
                // Completed posts whose public id is still awaited (migration 0019).
                eb('post_id_checks', 'is not', null),
              ]),
            )
            .where(
              'wake_at',
              '<=',
              sql<Date>`clock_timestamp() - ${`${graceMs} milliseconds`}::interval`,
            )
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
