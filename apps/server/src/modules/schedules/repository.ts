import { sql, type Insertable, type Kysely, type Selectable } from 'kysely';
import { noLease } from '../../db/lease.ts';
import type { CommercialContent, Delivery } from '@cadence/shared/schemas/schedule';
import { pgErrorCode } from '../../db/pg-errors.ts';
import type { Database } from '../../db/schema.ts';
import { AppError } from '../../lib/app-error.ts';
import './db-types.ts';
import type { PostTable, ScheduleTable } from './db-types.ts';

export type PostRow = Selectable<PostTable>;

/** The post columns its JSON needs (postSchema); the publisher's progress stays in the table. */
const postViewColumns = [
  'posts.id',
  'posts.schedule_id',
  'posts.account_id',
  'posts.account_username',
  'posts.media_id',
  'posts.title',
  'posts.due_at',
  'posts.randomized',
  'posts.jitter_minutes',
  'posts.status',
  'posts.fail_reason',
  'posts.tiktok_post_id',
  'posts.note',
  'posts.postponed_from',
  'posts.outcome_at',
  'posts.created_at',
] as const;

/** A post with what its JSON needs from elsewhere (the video's thumbnail, its schedule's settings). */
export type PostViewRow = Pick<
  PostRow,
  | 'id'
  | 'schedule_id'
  | 'account_id'
  | 'account_username'
  | 'media_id'
  | 'title'
  | 'due_at'
  | 'randomized'
  | 'jitter_minutes'
  | 'status'
  | 'fail_reason'
  | 'tiktok_post_id'
  | 'note'
  | 'postponed_from'
  | 'outcome_at'
  | 'created_at'
> & {
  thumbnail_key: string | null;
  schedule_created_at: Date;
  time_zone: string;
  privacy_level: string | null;
  delivery: Delivery;
  allow_comment: boolean;
  allow_duet: boolean;
  allow_stitch: boolean;
  commercial_content: CommercialContent;
};

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

/** The TikTok settings a schedule holds for its posts. */
export interface PostSettings {
  privacy_level: string | null;
  allow_comment: boolean;
  allow_duet: boolean;
  allow_stitch: boolean;
}

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
    .select(postViewColumns)
    .select([
      'media.thumbnail_key',
      'schedules.created_at as schedule_created_at',
      'schedules.time_zone',
      'schedules.privacy_level',
      'schedules.delivery',
      'schedules.allow_comment',
      'schedules.allow_duet',
      'schedules.allow_stitch',
      'schedules.commercial_content',
    ]);
}

/** Statuses that use up one of TikTok's daily posts (or will). */
export const capStatuses = ['pending', 'publishing', 'completed'] as const;

/** PostgreSQL's refusal of a zone its tz database lacks (Intl may know zones it does not). */
function isUnknownZone(error: unknown): boolean {
  return (
    pgErrorCode(error) === '22023' &&
    typeof error === 'object' &&
    error !== null &&
    'message' in error &&
    typeof error.message === 'string' &&
    error.message.includes('time zone')
  );
}

/** Runs a query that reads days in `timeZone`; a zone PostgreSQL does not know is the client's 400. */
export async function inZone<TResult>(run: () => Promise<TResult>): Promise<TResult> {
  try {
    return await run();
  } catch (error) {
    if (isUnknownZone(error)) {
      throw new AppError('validation_failed', 'Unknown time zone', {
        timeZone: 'errors.invalidTimeZone',
      });
    }
    throw error;
  }
}

/** The draft a schedule was made from was deleted (or scheduled) meanwhile: nothing was created. */
export class DraftGoneError extends Error {
  override name = 'DraftGoneError';
}

/** SQL for schedules and the user-facing side of posts. Every query is scoped by user id. */
export function createScheduleRepository(db: Kysely<Database>) {
  const postViews = () => selectPostViews(db);
  /** An account's posts due in [from, to) that use up a daily post (see capStatuses). */
  const accountCapPosts = (userId: string, accountId: string, from: Date, to: Date) =>
    db
      .selectFrom('posts')
      .where('posts.user_id', '=', userId)
      .where('posts.account_id', '=', accountId)
      .where('posts.status', 'in', capStatuses)
      .where('posts.due_at', '>=', from)
      .where('posts.due_at', '<', to);

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

    /** A schedule's posts, in due order. */
    postViewsOfSchedule(userId: string, scheduleId: string): Promise<PostViewRow[]> {
      return postViews()
        .where('posts.user_id', '=', userId)
        .where('posts.schedule_id', '=', scheduleId)
        .orderBy('posts.due_at', 'asc')
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

    /**
     * Changes a pending post (caption, due time, TikTok settings) in one transaction that holds
     * its row, so the publisher either claimed it before (nothing changes: false) or sees it
     * changed. Settings live on the schedule: a post sharing its schedule with others moves to a
     * copy of it with the new settings, so its siblings keep theirs.
     */
    async editPending(
      userId: string,
      id: string,
      changes: { title?: string | undefined; dueAt?: Date | undefined },
      settings?: PostSettings,
    ): Promise<boolean> {
      return db.transaction().execute(async (trx) => {
        const post = await trx
          .selectFrom('posts')
          .select(['schedule_id'])
          .where('user_id', '=', userId)
          .where('id', '=', id)
          .where('status', '=', 'pending')
          .forUpdate()
          .executeTakeFirst();
        if (!post) return false;
        let scheduleId = post.schedule_id;
        if (settings) {
          const siblings = await trx
            .selectFrom('posts')
            .select((eb) => eb.fn.countAll<number>().as('count'))
            .where('schedule_id', '=', scheduleId)
            .executeTakeFirstOrThrow();
          if (Number(siblings.count) > 1) {
            const copy = await trx
              .insertInto('schedules')
              .columns([
                'user_id',
                'account_id',
                'publish_type',
                'time_zone',
                'date',
                'time',
                'spaced_interval',
                'privacy_level',
                'allow_comment',
                'allow_duet',
                'allow_stitch',
                'commercial_content',
                'is_aigc',
                'delivery',
                'created_at',
              ])
              .expression((eb) =>
                eb
                  .selectFrom('schedules')
                  .select([
                    'user_id',
                    'account_id',
                    'publish_type',
                    'time_zone',
                    'date',
                    'time',
                    'spaced_interval',
                    sql.val(settings.privacy_level).as('privacy_level'),
                    sql.val(settings.allow_comment).as('allow_comment'),
                    sql.val(settings.allow_duet).as('allow_duet'),
                    sql.val(settings.allow_stitch).as('allow_stitch'),
                    'commercial_content',
                    'is_aigc',
                    'delivery',
                    'created_at',
                  ])
                  .where('id', '=', scheduleId),
              )
              .returning('id')
              .executeTakeFirstOrThrow();
            scheduleId = copy.id;
          } else {
            await trx.updateTable('schedules').set(settings).where('id', '=', scheduleId).execute();
          }
        }
        await trx
          .updateTable('posts')
          .set({
            schedule_id: scheduleId,
            ...(changes.title !== undefined && { title: changes.title }),
            ...(changes.dueAt !== undefined && {
              due_at: changes.dueAt,
              wake_at: changes.dueAt,
              // The user chose this time: Cadence's note about moving it no longer applies.
              note: null,
              postponed_from: null,
            }),
          })
          .where('id', '=', id)
          .execute();
        return true;
      });
    },

    /**
     * One account's posts that count towards TikTok's cap, per day of `timeZone`, for days
     * starting in [from, to) (`excludePostId`: the post being moved, which must not count itself).
     */
    async accountDayCounts(
      userId: string,
      accountId: string,
      from: Date,
      to: Date,
      timeZone: string,
      excludePostId?: string,
    ): Promise<Map<string, number>> {
      const day = sql<string>`to_char(posts.due_at at time zone ${timeZone}, 'YYYY-MM-DD')`;
      let query = accountCapPosts(userId, accountId, from, to).select([
        day.as('date'),
        sql<number>`count(*)::int`.as('count'),
      ]);
      if (excludePostId !== undefined) query = query.where('posts.id', '<>', excludePostId);
      const rows = await inZone(() => query.groupBy(sql`1`).execute());
      return new Map(rows.map((row) => [row.date, Number(row.count)]));
    },

    /** Due times of an account's posts in [from, to) that hold a posting slot (not cancelled or failed). */
    async accountDueTimes(
      userId: string,
      accountId: string,
      from: Date,
      to: Date,
    ): Promise<Date[]> {
      const rows = await accountCapPosts(userId, accountId, from, to)
        .select('posts.due_at')
        .execute();
      return rows.map((row) => row.due_at);
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
        .set({ status: 'cancelled' })
        .where('user_id', '=', userId)
        .where('account_id', '=', accountId)
        .where('status', '=', 'pending')
        .executeTakeFirst();
      return Number(result.numUpdatedRows);
    },
  };
}

export type ScheduleRepository = ReturnType<typeof createScheduleRepository>;
