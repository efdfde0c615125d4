// A schedule and its posts stored in one transaction, and found again by its Idempotency-Key.
import type { Insertable, Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import './db-types.ts';
import type { PostTable, ScheduleTable } from './db-types.ts';

export type NewPost = Omit<
  Insertable<PostTable>,
  'schedule_id' | 'user_id' | 'account_id' | 'account_username' | 'wake_at'
>;

/** The draft a schedule was made from was deleted (or scheduled) meanwhile: nothing was created. */
export class DraftGoneError extends Error {
  override name = 'DraftGoneError';
}

export function createScheduleInserts(db: Kysely<Database>) {
  return {
    /**
     * The schedule and its posts in one transaction: a request creates all of them or none. With
     * `fromDraft`, the draft goes in the same transaction (DraftGoneError when it is already gone,
     * so one draft never becomes two schedules).
     */
    async insertSchedule(
      schedule: Insertable<ScheduleTable>,
      accountUsername: string,
      posts: readonly NewPost[],
      options: { fromDraft?: string | undefined } = {},
    ): Promise<{ scheduleId: string; postIds: string[] }> {
      return db.transaction().execute(async (trx) => {
        // The schedule first: a twin request (same Idempotency-Key) waits here for this one's
        // commit and fails on the key, rather than on the draft this one deleted.
        const { id: scheduleId } = await trx
          .insertInto('schedules')
          .values(schedule)
          .returning('id')
          .executeTakeFirstOrThrow();
        if (options.fromDraft !== undefined) {
          const deleted = await trx
            .deleteFrom('drafts')
            .where('user_id', '=', schedule.user_id)
            .where('id', '=', options.fromDraft)
            .executeTakeFirst();
          if (deleted.numDeletedRows === 0n) throw new DraftGoneError();
        }
        const inserted = await trx
          .insertInto('posts')
          .values(
            posts.map((post) => ({
              ...post,
              schedule_id: scheduleId,
              user_id: schedule.user_id,
              account_id: schedule.account_id,
              account_username: accountUsername,
              wake_at: post.due_at,
            })),
          )
          .returning('id')
          .execute();
        return { scheduleId, postIds: inserted.map((row) => row.id) };
      });
    },

    /** The schedule a request with this Idempotency-Key made, with that request's fingerprint. */
    findByRequestKey(
      userId: string,
      requestKey: string,
    ): Promise<{ id: string; request_fingerprint: string | null } | undefined> {
      return db
        .selectFrom('schedules')
        .select(['id', 'request_fingerprint'])
        .where('user_id', '=', userId)
        .where('request_key', '=', requestKey)
        .executeTakeFirst();
    },
  };
}
