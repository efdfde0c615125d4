// The post's lease: the claim that takes it for a run, its renewals, the writes conditional on
// it, and where a post stands before a run. Every write that moves a post holds the lease.
import { sql, type Kysely, type Updateable } from 'kysely';
import {
  heldBy,
  holdLease,
  leaseFree,
  leaseStatements,
  noLease,
  type Lease,
} from '../../db/lease.ts';
import type { Database } from '../../db/schema.ts';
import type { PostTable } from '../schedules/db-types.ts';
import type { DbClock } from './db-clock.ts';
import type { PublishRow } from './publish-row.ts';
import { PREPARE_LEAD_MS } from './run-leads.ts';
import { clockReading, epochMsOf, ms, now } from './sql-instants.ts';

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
 * Takes the post for `leaseMs`: a due pending post becomes 'publishing' (attempt + 1), a
 * publishing one whose lease expired is resumed. Returns undefined when there is nothing to do
 * or another worker holds it. Two workers never both get it: the UPDATE re-checks its WHERE
 * after waiting for the row lock.
 */
export async function claimPost(
  db: Kysely<Database>,
  clock: DbClock,

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
}

/** Where the post stands, with its due time and lease judged by the database's clock. */
export function findPostStatus(db: Kysely<Database>, postId: string) {
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
}

export function createPostLeases(db: Kysely<Database>, clock: DbClock) {
  // A prepared run holds a post that is still pending (claim's `early`): a cancel, or any other
  // end of the post, stops the renewals and with them the run.
  const leases = leaseStatements(db, 'posts', 'id', {
    heldWhile: sql`status in ('pending', 'publishing')`,
  });
  return {
    claim: (postId: string, lease: Lease, processId: string | null = null, early = false) =>
      claimPost(db, clock, postId, lease, processId, early),

    findStatus: (postId: string) => findPostStatus(db, postId),

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
  };
}
