import type { NotificationType } from '@cadence/shared/schemas/notification';
import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import './db-types.ts';

/** The notification rows: recording an event once, the bell's reads, mail claims, the purge. */
export function createNotificationQueries(db: Kysely<Database>) {
  return {
    /** The new row, or undefined when this event was recorded already (same dedupe key). */
    insert(row: {
      userId: string;
      type: NotificationType;
      dedupeKey: string;
      data: Record<string, unknown>;
    }) {
      return db
        .insertInto('notifications')
        .values({
          user_id: row.userId,
          type: row.type,
          dedupe_key: row.dedupeKey,
          data: JSON.stringify(row.data),
        })
        .onConflict((conflict) => conflict.columns(['user_id', 'dedupe_key']).doNothing())
        .returningAll()
        .executeTakeFirst();
    },

    latest(userId: string, limit: number) {
      return db
        .selectFrom('notifications')
        .selectAll()
        .where('user_id', '=', userId)
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .limit(limit)
        .execute();
    },

    async unreadCount(userId: string): Promise<number> {
      const { count } = await db
        .selectFrom('notifications')
        .select((eb) => eb.fn.countAll<string>().as('count'))
        .where('user_id', '=', userId)
        .where('read_at', 'is', null)
        .executeTakeFirstOrThrow();
      return Number(count);
    },

    /** Rows created since `since` (the live stream's poll, on notifications_user_created_idx). */
    createdSince(userId: string, since: Date) {
      return db
        .selectFrom('notifications')
        .selectAll()
        .where('user_id', '=', userId)
        .where('created_at', '>=', since)
        .orderBy('created_at')
        .execute();
    },

    async markAllRead(userId: string): Promise<void> {
      await db
        .updateTable('notifications')
        .set({ read_at: sql`now()` })
        .where('user_id', '=', userId)
        .where('read_at', 'is', null)
        .execute();
    },

    /**
     * Claims rows for one email: sets `mailed_at` on those not mailed yet and returns them, so two
     * runs (a retried digest, two workers) never mail the same row.
     */
    claimForMail(ids: string[]) {
      if (ids.length === 0) return Promise.resolve([]);
      return db
        .updateTable('notifications')
        .set({ mailed_at: sql`now()` })
        .where('id', 'in', ids)
        .where('mailed_at', 'is', null)
        .returningAll()
        .execute();
    },

    /** Deletes rows older than `olderThanDays` days; returns how many. */
    async purge(olderThanDays: number): Promise<number> {
      const result = await db
        .deleteFrom('notifications')
        .where('created_at', '<', sql<Date>`now() - make_interval(days => ${olderThanDays})`)
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}
