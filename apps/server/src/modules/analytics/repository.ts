import { sql, type Kysely, type Selectable } from 'kysely';
import { heldBy, holdLease, leaseEnd, leaseFree, noLease, type Lease } from '../../db/lease.ts';
import type { Database } from '../../db/schema.ts';
import type { AnalyticsAccountTable, AnalyticsVideoTable } from './db-types.ts';
import './db-types.ts';

export type AnalyticsAccountRow = Selectable<AnalyticsAccountTable>;
export type AnalyticsVideoRow = Selectable<AnalyticsVideoTable>;

/** Counts as TikTok reports them for one video at one moment. */
export interface VideoCounts {
  viewCount: number;
  likeCount: number;
  commentCount: number;
  shareCount: number;
}

/** One video as the sync writes it (from video/list or video/query). */
export interface ObservedVideo extends VideoCounts {
  videoId: string;
  postedAt: Date;
  title: string;
  coverImageUrl: string | null;
  shareUrl: string | null;
  duration: number | null;
}

/** What the sync writes for one video after comparing with what it had. */
export interface VideoWrite extends ObservedVideo {
  viewsAt24h: number | null;
  nextSnapshotAt: Date;
  /** A snapshot row is added only when the counts changed (or for a new video). */
  snapshot: boolean;
}

export interface AccountStats {
  followerCount: number | null;
  followingCount: number | null;
  likesCount: number | null;
  videoCount: number | null;
}

/** The claim was lost (expired and taken over): nothing this run writes lands any more. */
export class AnalyticsLeaseLostError extends Error {
  override name = 'AnalyticsLeaseLostError';
}

/**
 * SQL for analytics: the sync's progress, videos and snapshots (written only while the run's
 * lease holds), and the reads behind the API, always scoped by user id.
 */
export function createAnalyticsRepository(db: Kysely<Database>) {
  /** Renews the lease inside `trx`, or throws: every write of a run goes through this. */
  async function renewOrThrow(trx: Kysely<Database>, id: string, lease: Lease): Promise<void> {
    const result = await trx
      .updateTable('analytics_accounts')
      .set({ lease_until: leaseEnd(lease.ms) })
      .where('id', '=', id)
      .where(heldBy(lease.owner))
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) === 0) throw new AnalyticsLeaseLostError(id);
  }

  return {
    /**
     * Connected accounts allowed to list videos whose sync is due (or that never synced), and
     * that no run holds. Oldest due first.
     */
    async dueAccountIds(now: Date, limit: number): Promise<string[]> {
      const rows = await sql<{ id: string }>`
        select t.id from tiktok_accounts t
        left join analytics_accounts a on a.user_id = t.user_id and a.open_id = t.open_id
        where t.status = 'connected' and t.open_id is not null and 'video.list' = any(t.scopes)
          and (a.id is null or (a.next_sync_at <= ${now} and (a.lease_until is null or a.lease_until <= now())))
        order by a.next_sync_at nulls first
        limit ${limit}
      `.execute(db);
      return rows.rows.map((row) => row.id);
    },

    /** The analytics row of a connected account's TikTok user, created or re-attached. */
    async ensureAccount(account: {
      id: string;
      user_id: string;
      open_id: string;
      username: string;
      display_name: string | null;
      avatar_url: string | null;
    }): Promise<AnalyticsAccountRow> {
      return db
        .insertInto('analytics_accounts')
        .values({
          user_id: account.user_id,
          open_id: account.open_id,
          account_id: account.id,
          username: account.username,
          display_name: account.display_name,
          avatar_url: account.avatar_url,
        })
        .onConflict((conflict) =>
          conflict.columns(['user_id', 'open_id']).doUpdateSet({
            account_id: account.id,
            username: account.username,
            display_name: account.display_name,
            avatar_url: account.avatar_url,
          }),
        )
        .returningAll()
        .executeTakeFirstOrThrow();
    },

    /** Takes the account's sync for one run; undefined when another run holds it. */
    async claim(id: string, lease: Lease): Promise<AnalyticsAccountRow | undefined> {
      return db
        .updateTable('analytics_accounts')
        .set(holdLease(lease))
        .where('id', '=', id)
        .where(leaseFree())
        .returningAll()
        .executeTakeFirst();
    },

    /** The account's videos among `videoIds`, to compare what TikTok says now with what we had. */
    async videosByIds(accountId: string, videoIds: readonly string[]) {
      if (videoIds.length === 0) return [];
      return db
        .selectFrom('analytics_videos')
        .select([
          'video_id',
          'posted_at',
          'view_count',
          'like_count',
          'comment_count',
          'share_count',
          'views_at_24h',
          'last_snapshot_at',
        ])
        .where('analytics_account_id', '=', accountId)
        .where('video_id', 'in', videoIds)
        .execute();
    },

    /**
     * Writes a page of videos (and their snapshots) and the listing progress in one transaction,
     * renewing the lease; throws AnalyticsLeaseLostError when the run no longer holds it.
     */
    async writeVideos(
      account: { id: string; userId: string },
      lease: Lease,
      takenAt: Date,
      videos: readonly VideoWrite[],
      progress?: { cursor: number | null; passNewest: number | null; knownNewest?: number },
    ): Promise<void> {
      await db.transaction().execute(async (trx) => {
        await renewOrThrow(trx, account.id, lease);
        if (videos.length > 0) {
          const rows = await trx
            .insertInto('analytics_videos')
            .values(
              videos.map((video) => ({
                analytics_account_id: account.id,
                user_id: account.userId,
                video_id: video.videoId,
                title: video.title,
                cover_image_url: video.coverImageUrl,
                share_url: video.shareUrl,
                duration: video.duration,
                posted_at: video.postedAt,
                view_count: video.viewCount,
                like_count: video.likeCount,
                comment_count: video.commentCount,
                share_count: video.shareCount,
                views_at_24h: video.viewsAt24h,
                last_snapshot_at: takenAt,
                next_snapshot_at: video.nextSnapshotAt,
              })),
            )
            .onConflict((conflict) =>
              conflict.columns(['analytics_account_id', 'video_id']).doUpdateSet((eb) => ({
                title: eb.ref('excluded.title'),
                cover_image_url: eb.ref('excluded.cover_image_url'),
                share_url: eb.ref('excluded.share_url'),
                duration: eb.ref('excluded.duration'),
                view_count: eb.ref('excluded.view_count'),
                like_count: eb.ref('excluded.like_count'),
                comment_count: eb.ref('excluded.comment_count'),
                share_count: eb.ref('excluded.share_count'),
                views_at_24h: eb.ref('excluded.views_at_24h'),
                last_snapshot_at: eb.ref('excluded.last_snapshot_at'),
                next_snapshot_at: eb.ref('excluded.next_snapshot_at'),
              })),
            )
            .returning(['id', 'video_id'])
            .execute();
          const rowIds = new Map(rows.map((row) => [row.video_id, row.id]));
          const snapshots = videos.flatMap((video) => {
            const rowId = rowIds.get(video.videoId);
            if (!video.snapshot || rowId === undefined) return [];
            return [
              {
                video_row_id: rowId,
                taken_at: takenAt,
                view_count: video.viewCount,
                like_count: video.likeCount,
                comment_count: video.commentCount,
                share_count: video.shareCount,
              },
            ];
          });
          if (snapshots.length > 0) {
            await trx
              .insertInto('analytics_video_snapshots')
              .values(snapshots)
              .onConflict((conflict) => conflict.columns(['video_row_id', 'taken_at']).doNothing())
              .execute();
          }
        }
        if (progress) {
          await trx
            .updateTable('analytics_accounts')
            .set({
              list_cursor: progress.cursor,
              list_pass_newest: progress.passNewest,
              ...(progress.knownNewest !== undefined && { known_newest: progress.knownNewest }),
            })
            .where('id', '=', account.id)
            .execute();
        }
      });
    },

    /** Videos whose next snapshot is due and that this run has not observed yet. */
    async dueVideoIds(accountId: string, now: Date, observedBefore: Date, limit: number) {
      const rows = await db
        .selectFrom('analytics_videos')
        .select('video_id')
        .where('analytics_account_id', '=', accountId)
        .where('next_snapshot_at', '<=', now)
        .where((eb) =>
          eb.or([eb('last_snapshot_at', 'is', null), eb('last_snapshot_at', '<', observedBefore)]),
        )
        .orderBy('next_snapshot_at')
        .limit(limit)
        .execute();
      return rows.map((row) => row.video_id);
    },

    /** Videos TikTok no longer returns (deleted, made private): asked about again later. */
    async deferVideos(accountId: string, videoIds: readonly string[], until: Date) {
      if (videoIds.length === 0) return;
      await db
        .updateTable('analytics_videos')
        .set({ next_snapshot_at: until })
        .where('analytics_account_id', '=', accountId)
        .where('video_id', 'in', videoIds)
        .execute();
    },

    /** Links the account's videos to the Cadence posts that published them (ids may come late). */
    async linkPosts(accountId: string, userId: string): Promise<number> {
      const result = await sql`
        update analytics_videos v set post_id = p.id
        from posts p
        where v.analytics_account_id = ${accountId} and v.post_id is null
          and p.user_id = ${userId} and p.tiktok_post_id = v.video_id
      `.execute(db);
      return Number(result.numAffectedRows ?? 0n);
    },

    /**
     * The account's totals at `takenAt`: TikTok's stats and the sums of its videos' latest
     * counts. At most one per hour: a newer one in the same hour replaces nothing.
     */
    async recordAccountSnapshot(
      accountId: string,
      lease: Lease,
      takenAt: Date,
      stats: AccountStats | null,
    ): Promise<boolean> {
      return db.transaction().execute(async (trx) => {
        await renewOrThrow(trx, accountId, lease);
        const result = await sql`
          insert into analytics_account_snapshots (
            analytics_account_id, taken_at, follower_count, following_count, likes_count,
            video_count, view_total, like_total, comment_total, share_total)
          select ${accountId}, ${takenAt}, ${stats?.followerCount ?? null}, ${stats?.followingCount ?? null},
            ${stats?.likesCount ?? null}, ${stats?.videoCount ?? null},
            coalesce(sum(view_count), 0)::bigint, coalesce(sum(like_count), 0)::bigint,
            coalesce(sum(comment_count), 0)::bigint, coalesce(sum(share_count), 0)::bigint
          from analytics_videos where analytics_account_id = ${accountId}
          having not exists (
            select 1 from analytics_account_snapshots s
            where s.analytics_account_id = ${accountId}
              and s.taken_at > ${takenAt}::timestamptz - interval '1 hour'
          )
        `.execute(trx);
        return Number(result.numAffectedRows ?? 0n) > 0;
      });
    },

    async lastAccountSnapshotAt(accountId: string): Promise<Date | null> {
      const row = await db
        .selectFrom('analytics_account_snapshots')
        .select('taken_at')
        .where('analytics_account_id', '=', accountId)
        .orderBy('taken_at', 'desc')
        .limit(1)
        .executeTakeFirst();
      return row?.taken_at ?? null;
    },

    async earliestSnapshotDue(accountId: string): Promise<Date | null> {
      const row = await db
        .selectFrom('analytics_videos')
        .select((eb) => eb.fn.min('next_snapshot_at').as('due'))
        .where('analytics_account_id', '=', accountId)
        .executeTakeFirst();
      return row?.due ?? null;
    },

    /** Ends a run: when to sync next, what went wrong (null: nothing), and the lease released. */
    async finishRun(
      id: string,
      owner: string,
      outcome: { nextSyncAt: Date; syncedAt: Date | null; error: string | null },
    ): Promise<void> {
      await db
        .updateTable('analytics_accounts')
        .set((eb) => ({
          ...noLease,
          next_sync_at: outcome.nextSyncAt,
          last_error: outcome.error,
          failures: outcome.error === null ? 0 : eb('failures', '+', 1),
          ...(outcome.syncedAt !== null && { last_synced_at: outcome.syncedAt }),
          video_count: eb
            .selectFrom('analytics_videos')
            .select((count) => count.fn.countAll<number>().as('count'))
            .where('analytics_account_id', '=', id),
        }))
        .where('id', '=', id)
        .where(heldBy(owner))
        .execute();
    },

    // ---- Reads behind the API: always scoped by the user's id. ----

    /** The ids of the user's analytics accounts (ownership checks). */
    async accountIdsOfUser(userId: string): Promise<string[]> {
      const rows = await db
        .selectFrom('analytics_accounts')
        .select('id')
        .where('user_id', '=', userId)
        .orderBy('created_at')
        .execute();
      return rows.map((row) => row.id);
    },

    /** The user's analytics accounts, with whether their card is still connected. */
    async accountsOfUser(userId: string) {
      const rows = await sql<{
        id: string;
        username: string;
        display_name: string | null;
        avatar_url: string | null;
        account_id: string | null;
        status: string | null;
        last_synced_at: Date | null;
        video_count: number;
      }>`
        select a.id, a.username, a.display_name, a.avatar_url, a.account_id, t.status,
          a.last_synced_at,
          a.video_count
        from analytics_accounts a
        left join tiktok_accounts t on t.id = a.account_id
        where a.user_id = ${userId}
        order by a.created_at
      `.execute(db);
      return rows.rows;
    },

    /**
     * Per account and per day (in `timeZone`) from `from` to before `to`: the last snapshot of the
     * day; plus, per account, the last snapshot before `from` (the baseline the first day's gains
     * are counted from: one index seek, however long the history before it).
     */
    async dailySnapshots(accountIds: readonly string[], from: Date, to: Date, timeZone: string) {
      if (accountIds.length === 0) return { days: [], baselines: [] };
      const ids = sql.join(accountIds.map((id) => sql`${id}::uuid`));
      const days = await sql<{
        analytics_account_id: string;
        day: string;
        follower_count: number | null;
        view_total: number;
        like_total: number;
        comment_total: number;
        share_total: number;
      }>`
        select distinct on (analytics_account_id, day) analytics_account_id,
          to_char(taken_at at time zone ${timeZone}, 'YYYY-MM-DD') as day,
          follower_count, view_total, like_total, comment_total, share_total
        from analytics_account_snapshots
        where analytics_account_id in (${ids}) and taken_at >= ${from} and taken_at < ${to}
        order by analytics_account_id, day, taken_at desc
      `.execute(db);
      const accounts = sql.join(accountIds.map((id) => sql`(${id}::uuid)`));
      const baselines = await sql<{
        analytics_account_id: string;
        follower_count: number | null;
        view_total: number;
        like_total: number;
        comment_total: number;
        share_total: number;
      }>`
        select a.id as analytics_account_id, s.*
        from (values ${accounts}) as a (id)
        cross join lateral (
          select follower_count, view_total, like_total, comment_total, share_total
          from analytics_account_snapshots
          where analytics_account_id = a.id and taken_at < ${from}
          order by taken_at desc limit 1
        ) s
      `.execute(db);
      return { days: days.rows, baselines: baselines.rows };
    },

    /** Videos posted in [from, to) on these accounts, most viewed first. */
    async videosPostedBetween(accountIds: readonly string[], from: Date, to: Date, limit: number) {
      if (accountIds.length === 0) return [];
      return db
        .selectFrom('analytics_videos as v')
        .innerJoin('analytics_accounts as a', 'a.id', 'v.analytics_account_id')
        .select([
          'v.id',
          'v.video_id',
          'a.username',
          'v.title',
          'v.cover_image_url',
          'v.share_url',
          'v.posted_at',
          'v.view_count',
          'v.like_count',
          'v.comment_count',
          'v.share_count',
          'v.post_id',
        ])
        .where('v.analytics_account_id', 'in', accountIds)
        .where('v.posted_at', '>=', from)
        .where('v.posted_at', '<', to)
        .orderBy('v.view_count', 'desc')
        .orderBy('v.posted_at', 'desc')
        .limit(limit)
        .execute();
    },

    /** Per day (in `timeZone`) of [from, to): videos posted and their views to date. */
    async videosPostedPerDay(
      accountIds: readonly string[],
      from: Date,
      to: Date,
      timeZone: string,
    ) {
      if (accountIds.length === 0) return [];
      const ids = sql.join(accountIds.map((id) => sql`${id}::uuid`));
      const rows = await sql<{ day: string; videos: number; views: number }>`
        select to_char(posted_at at time zone ${timeZone}, 'YYYY-MM-DD') as day,
          count(*)::int as videos, coalesce(sum(view_count), 0)::bigint as views
        from analytics_videos
        where analytics_account_id in (${ids}) and posted_at >= ${from} and posted_at < ${to}
        group by 1
      `.execute(db);
      return rows.rows;
    },

    async countVideosPostedBetween(accountIds: readonly string[], from: Date, to: Date) {
      if (accountIds.length === 0) return 0;
      const row = await db
        .selectFrom('analytics_videos')
        .select((eb) => eb.fn.countAll<number>().as('count'))
        .where('analytics_account_id', 'in', accountIds)
        .where('posted_at', '>=', from)
        .where('posted_at', '<', to)
        .executeTakeFirst();
      return Number(row?.count ?? 0);
    },

    /** What best times are learned from: each video's 24-hour views, or its settled views. */
    async bestTimeInputs(accountIds: readonly string[]) {
      if (accountIds.length === 0) return [];
      return db
        .selectFrom('analytics_videos')
        .select([
          'analytics_account_id',
          'posted_at',
          'views_at_24h',
          'view_count',
          'first_seen_at',
          'last_snapshot_at',
        ])
        .where('analytics_account_id', 'in', accountIds)
        .execute();
    },

    /** The user's posts among `postIds` and their synced videos (null when not synced yet). */
    async postsWithVideos(userId: string, postIds: readonly string[]) {
      if (postIds.length === 0) return [];
      const ids = sql.join(postIds.map((id) => sql`${id}::uuid`));
      const rows = await sql<{
        post_id: string;
        video_row_id: string | null;
        video_id: string | null;
        username: string | null;
        title: string | null;
        cover_image_url: string | null;
        share_url: string | null;
        posted_at: Date | null;
        view_count: number | null;
        like_count: number | null;
        comment_count: number | null;
        share_count: number | null;
      }>`
        select p.id as post_id, v.id as video_row_id, v.video_id, a.username, v.title,
          v.cover_image_url, v.share_url, v.posted_at, v.view_count, v.like_count,
          v.comment_count, v.share_count
        from posts p
        left join lateral (
          select * from analytics_videos v
          where v.user_id = p.user_id
            and (v.post_id = p.id or (p.tiktok_post_id is not null and v.video_id = p.tiktok_post_id))
          order by v.post_id is null, v.last_snapshot_at desc nulls last
          limit 1
        ) v on true
        left join analytics_accounts a on a.id = v.analytics_account_id
        where p.user_id = ${userId} and p.id in (${ids})
      `.execute(db);
      return rows.rows;
    },

    /** A video's views over time, oldest first; the last `limit` points when given. */
    async viewSeries(videoRowIds: readonly string[], limit?: number) {
      if (videoRowIds.length === 0) return [];
      const ids = sql.join(videoRowIds.map((id) => sql`${id}::uuid`));
      const rows = await sql<{ video_row_id: string; taken_at: Date; view_count: number }>`
        select video_row_id, taken_at, view_count from (
          select video_row_id, taken_at, view_count,
            row_number() over (partition by video_row_id order by taken_at desc) as rank
          from analytics_video_snapshots where video_row_id in (${ids})
        ) ranked
        where ${limit === undefined ? sql`true` : sql`rank <= ${limit}`}
        order by video_row_id, taken_at
      `.execute(db);
      return rows.rows;
    },

    async findAccount(id: string) {
      return db
        .selectFrom('analytics_accounts')
        .selectAll()
        .where('id', '=', id)
        .executeTakeFirst();
    },
  };
}

export type AnalyticsRepository = ReturnType<typeof createAnalyticsRepository>;
