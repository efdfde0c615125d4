import type { NotificationType } from '@cadence/shared/schemas/notification';
import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import './db-types.ts';

/** Which notifications a person gets by email, and their daily digest. */
export function createEmailSettingsQueries(db: Kysely<Database>) {
  return {
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
  };
}
