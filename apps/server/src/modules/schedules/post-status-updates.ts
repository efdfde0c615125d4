// A post's status changed by its owner: cancelled, moved while pending, or reopened (pending again).
import { sql, type Kysely } from 'kysely';
import { noLease } from '../../db/lease.ts';
import type { Database } from '../../db/schema.ts';
import './db-types.ts';

/** A post's publish progress, forgotten when it starts over (a new TikTok post). */
const freshProgress = {
  fail_reason: null,
  attempt: 0,
  unfinished_runs: 0,
  company_deaths: 0,
  ...noLease,
  init_started_at: null,
  publish_id: null,
  upload_url: null,
  upload_url_expires_at: null,
  uploaded_bytes: 0,
  poll_count: 0,
  tiktok_post_id: null,
  published_at: null,
} as const;

export function createPostStatusUpdates(db: Kysely<Database>) {
  /**
   * A cancelled or failed post back to pending, due at `dueAt` (or, with 'keep', at its own
   * time if that is still after `now`), its publish progress forgotten and its note cleared;
   * not for a post whose account was deleted. False when nothing matched.
   */
  async function reopen(
    userId: string,
    id: string,
    from: readonly ('cancelled' | 'failed')[],
    dueAt: Date | { keep: true; after: Date },
  ): Promise<boolean> {
    const due = dueAt instanceof Date ? dueAt : sql<Date>`due_at`;
    let query = db
      .updateTable('posts')
      .set({
        ...freshProgress,
        status: 'pending',
        due_at: due,
        wake_at: due,
        note: null,
        postponed_from: null,
      })
      .where('user_id', '=', userId)
      .where('id', '=', id)
      .where('status', 'in', from)
      .where('account_id', 'is not', null);
    if (!(dueAt instanceof Date)) query = query.where('due_at', '>', dueAt.after);
    const result = await query.executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }

  return {
    /** pending → cancelled; false when the post is not pending (or not this user's). */
    async cancel(userId: string, id: string): Promise<boolean> {
      const result = await db
        .updateTable('posts')
        .set({ status: 'cancelled', wake_at: new Date() })
        .where('user_id', '=', userId)
        .where('id', '=', id)
        .where('status', '=', 'pending')
        .executeTakeFirst();
      return result.numUpdatedRows > 0n;
    },

    async reschedule(userId: string, id: string, dueAt: Date): Promise<boolean> {
      const result = await db
        .updateTable('posts')
        .set({
          due_at: dueAt,
          wake_at: dueAt,
          note: null,
          postponed_from: null,
        })
        .where('user_id', '=', userId)
        .where('id', '=', id)
        .where('status', '=', 'pending')
        .executeTakeFirst();
      return result.numUpdatedRows > 0n;
    },

    /**
     * failed → pending, due now, with the publish progress forgotten (a new TikTok post); not for
     * a post whose account was deleted.
     */
    async retry(userId: string, id: string, now: Date): Promise<boolean> {
      return reopen(userId, id, ['failed'], now);
    },

    reopen,

    async cancelPendingForAccount(userId: string, accountId: string): Promise<number> {
      const result = await db
        .updateTable('posts')
        .set({ status: 'cancelled' })
        .where('user_id', '=', userId)
        .where('account_id', '=', accountId)
        .where('status', '=', 'pending')
        .executeTakeFirst();
      return Number(result.numUpdatedRows);
    },
  };
}
