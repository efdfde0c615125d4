// Posts as the API shows them: joined with their video's thumbnail and their schedule's settings.
import type { CommercialContent, Delivery } from '@cadence/shared/schemas/schedule';
import type { Kysely, Selectable } from 'kysely';
import type { Database } from '../../db/schema.ts';
import './db-types.ts';
import type { PostTable } from './db-types.ts';

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
  Selectable<PostTable>,
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

export function createPostViewQueries(db: Kysely<Database>) {
  const postViews = () => selectPostViews(db);
  return {
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
  };
}
