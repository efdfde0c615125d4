import { sql, type Kysely } from 'kysely';
import type { Lease } from '../../db/lease.ts';
import type { Database } from '../../db/schema.ts';
import { renewLeaseOrThrow } from './sync-run-queries.ts';
import './db-types.ts';

export interface AccountStats {
  followerCount: number | null;
  followingCount: number | null;
  likesCount: number | null;
  videoCount: number | null;
}

/** The account's totals over time (at most hourly), and when the sync should look again. */
export function createAccountSnapshotQueries(db: Kysely<Database>) {
  return {
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
        await renewLeaseOrThrow(trx, accountId, lease);
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
  };
}
