import { sql, type Kysely, type Selectable } from 'kysely';
import { heldBy, holdLease, leaseEnd, leaseFree, noLease, type Lease } from '../../db/lease.ts';
import type { Database } from '../../db/schema.ts';
import type { AnalyticsAccountTable } from './db-types.ts';
import './db-types.ts';

export type AnalyticsAccountRow = Selectable<AnalyticsAccountTable>;

/** The claim was lost (expired and taken over): nothing this run writes lands any more. */
export class AnalyticsLeaseLostError extends Error {
  override name = 'AnalyticsLeaseLostError';
}

/** Renews the lease inside `trx`, or throws: every write of a run goes through this. */
export async function renewLeaseOrThrow(
  trx: Kysely<Database>,
  id: string,
  lease: Lease,
): Promise<void> {
  const result = await trx
    .updateTable('analytics_accounts')
    .set({ lease_until: leaseEnd(lease.ms) })
    .where('id', '=', id)
    .where(heldBy(lease.owner))
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) === 0) throw new AnalyticsLeaseLostError(id);
}

/** Which accounts a sync run takes, and how a run holds its account (the lease) and lets it go. */
export function createSyncRunQueries(db: Kysely<Database>) {
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
  };
}
