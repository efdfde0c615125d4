import type { NotificationType } from '@cadence/shared/schemas/notification';
import { sql, type Kysely, type Selectable } from 'kysely';
import type { Database } from '../../db/schema.ts';
import './db-types.ts';
import type { NotificationTable } from './db-types.ts';

export type NotificationRow = Selectable<NotificationTable>;

export function createNotificationRepository(db: Kysely<Database>) {
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

    settingsOf(userId: string) {
      return db
        .selectFrom('notification_settings')
        .select(['email_types', 'digest'])
        .where('user_id', '=', userId)
        .executeTakeFirst();
    },

    async saveSettings(userId: string, emailTypes: NotificationType[], digest: boolean) {
      await db
        .insertInto('notification_settings')
        .values({ user_id: userId, email_types: emailTypes, digest })
        .onConflict((conflict) =>
          conflict.column('user_id').doUpdateSet({
            email_types: emailTypes,
            digest,
            updated_at: sql`now()`,
          }),
        )
        .execute();
    },

    /** Everyone on the daily digest, with the zone their day is counted in. */
    digestPeople() {
      return db
        .selectFrom('notification_settings as s')
        .innerJoin('user as u', 'u.id', 's.user_id')
        .select(['s.user_id', 'u.timeZone'])
        .where('s.digest', '=', true)
        .execute();
    },

    /**
     * Claims the person's digest of `localDate` ('YYYY-MM-DD' in their zone): true for the one
     * caller that moved `last_digest_on` to it, false when that day's digest was already claimed.
     */
    async claimDigestDay(userId: string, localDate: string): Promise<boolean> {
      const result = await db
        .updateTable('notification_settings')
        .set({ last_digest_on: localDate })
        .where('user_id', '=', userId)
        .where('digest', '=', true)
        .where((eb) =>
          eb.or([
            eb('last_digest_on', 'is', null),
            eb('last_digest_on', '<', sql<string>`${localDate}::date`),
          ]),
        )
        .executeTakeFirst();
      return result.numUpdatedRows > 0n;
    },

    /** The person's unmailed notifications of a type they get by email (their digest's lines). */
    async digestCandidates(userId: string) {
      return db
        .selectFrom('notifications as n')
        .innerJoin('notification_settings as s', 's.user_id', 'n.user_id')
        .select(['n.id'])
        .where('n.user_id', '=', userId)
        .where('n.mailed_at', 'is', null)
        .where(sql<boolean>`n.type = any(s.email_types)`)
        .orderBy('n.created_at')
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

export type NotificationRepository = ReturnType<typeof createNotificationRepository>;
