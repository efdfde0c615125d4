import { sql, type Insertable, type Kysely, type Selectable } from 'kysely';
import type { Database } from '../../db/schema.ts';
import './db-types.ts';
import type { PostTable, ScheduleTable } from './db-types.ts';

export type PostRow = Selectable<PostTable>;

/** A post with what its JSON needs from elsewhere (the video's thumbnail, its schedule's settings). */
export type PostViewRow = PostRow & {
  thumbnail_key: string | null;
  schedule_created_at: Date;
  time_zone: string;
  privacy_level: string;
  allow_comment: boolean;
  allow_duet: boolean;
  allow_stitch: boolean;
};

export type NewPost = Omit<
  Insertable<PostTable>,
  'schedule_id' | 'user_id' | 'account_id' | 'account_username' | 'wake_at'
>;

/** Posts joined with what their JSON needs (postSchema); callers add the user scope. */
export function selectPostViews(db: Kysely<Database>) {
  return db
    .selectFrom('posts')
    .innerJoin('schedules', 'schedules.id', 'posts.schedule_id')
    .innerJoin('media', 'media.id', 'posts.media_id')
    .selectAll('posts')
    .select([
      'media.thumbnail_key',
      'schedules.created_at as schedule_created_at',
      'schedules.time_zone',
      'schedules.privacy_level',
      'schedules.allow_comment',
      'schedules.allow_duet',
      'schedules.allow_stitch',
    ]);
}

/** SQL for schedules and the user-facing side of posts. Every query is scoped by user id. */
export function createScheduleRepository(db: Kysely<Database>) {
  const postViews = () => selectPostViews(db);

  return {
    /** The schedule and its posts in one transaction: a request creates all of them or none. */
    async insertSchedule(
      schedule: Insertable<ScheduleTable>,
      accountUsername: string,
      posts: readonly NewPost[],
    ): Promise<{ scheduleId: string; postIds: string[] }> {
      return db.transaction().execute(async (trx) => {
        const { id: scheduleId } = await trx
          .insertInto('schedules')
          .values(schedule)
          .returning('id')
          .executeTakeFirstOrThrow();
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

    /** Newest schedule first, then by due time. */
    listPostViews(userId: string): Promise<PostViewRow[]> {
      return postViews()
        .where('posts.user_id', '=', userId)
        .orderBy('schedules.created_at', 'desc')
        .orderBy('posts.schedule_id')
        .orderBy('posts.due_at', 'asc')
        .orderBy('posts.id')
        .execute();
    },

    postViewsByIds(userId: string, ids: readonly string[]): Promise<PostViewRow[]> {
      if (ids.length === 0) return Promise.resolve([]);
      return postViews()
        .where('posts.user_id', '=', userId)
        .where('posts.id', 'in', ids)
        .orderBy('posts.due_at', 'asc')
        .execute();
    },

    findPostView(userId: string, id: string): Promise<PostViewRow | undefined> {
      return postViews()
        .where('posts.user_id', '=', userId)
        .where('posts.id', '=', id)
        .executeTakeFirst();
    },

    /** Posts changed at or after `since` (for the live stream). */
    changedSince(userId: string, since: Date): Promise<PostViewRow[]> {
      return postViews()
        .where('posts.user_id', '=', userId)
        .where('posts.updated_at', '>=', since)
        .orderBy('posts.updated_at', 'asc')
        .execute();
    },

    /** pending → cancelled; false when the post is not pending (or not this user's). */
    async cancel(userId: string, id: string): Promise<boolean> {
      const result = await db
        .updateTable('posts')
        .set({ status: 'cancelled', wake_at: new Date(), updated_at: sql<Date>`clock_timestamp()` })
        .where('user_id', '=', userId)
        .where('id', '=', id)
        .where('status', '=', 'pending')
        .executeTakeFirst();
      return result.numUpdatedRows > 0n;
    },

    async reschedule(userId: string, id: string, dueAt: Date): Promise<boolean> {
      const result = await db
        .updateTable('posts')
        .set({ due_at: dueAt, wake_at: dueAt, updated_at: sql<Date>`clock_timestamp()` })
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
      const result = await db
        .updateTable('posts')
        .set({
          status: 'pending',
          due_at: now,
          wake_at: now,
          fail_reason: null,
          attempt: 0,
          lease_owner: null,
          lease_until: null,
          init_started_at: null,
          publish_id: null,
          upload_url: null,
          upload_url_expires_at: null,
          uploaded_bytes: 0,
          poll_count: 0,
          tiktok_post_id: null,
          published_at: null,
          updated_at: sql<Date>`clock_timestamp()`,
        })
        .where('user_id', '=', userId)
        .where('id', '=', id)
        .where('status', '=', 'failed')
        .where('account_id', 'is not', null)
        .executeTakeFirst();
      return result.numUpdatedRows > 0n;
    },

    async pendingByAccount(
      userId: string,
    ): Promise<Map<string, { count: number; nextDueAt: Date | null }>> {
      const rows = await db
        .selectFrom('posts')
        .select(['account_id'])
        .select((eb) => [
          eb.fn.countAll<number>().as('count'),
          eb.fn.min<Date>('due_at').as('next_due_at'),
        ])
        .where('user_id', '=', userId)
        .where('status', '=', 'pending')
        .where('account_id', 'is not', null)
        .groupBy('account_id')
        .execute();
      return new Map(
        rows.flatMap((row) =>
          row.account_id === null
            ? []
            : [[row.account_id, { count: Number(row.count), nextDueAt: row.next_due_at ?? null }]],
        ),
      );
    },

    async cancelPendingForAccount(userId: string, accountId: string): Promise<number> {
      const result = await db
        .updateTable('posts')
        .set({ status: 'cancelled', updated_at: sql<Date>`clock_timestamp()` })
        .where('user_id', '=', userId)
        .where('account_id', '=', accountId)
        .where('status', '=', 'pending')
        .executeTakeFirst();
      return Number(result.numUpdatedRows);
    },
  };
}

export type ScheduleRepository = ReturnType<typeof createScheduleRepository>;
