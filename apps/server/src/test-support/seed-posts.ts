import type { Delivery, PostStatus } from '@cadence/shared/schemas/schedule';
import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { createScheduleRepository } from '../modules/schedules/repository.ts';

export interface SeededPost {
  dueAt: Date;
  status?: PostStatus;
  title?: string;
  /** When a history post was published, failed or was cancelled: its due time unless given. */
  outcomeAt?: Date;
}

/**
 * Posts written straight into the database, as many as a test or benchmark needs (no TikTok call
 * per schedule): one 'scheduled' schedule (SELF_ONLY, interactions off) holding `posts`, each then
 * set to its status (a history post's outcome at its due time unless `outcomeAt` says otherwise).
 * Returns the post ids in the order given. `owner.delivery`: 'direct' by default
 * ('inbox': drafts sent to the creator's TikTok inbox, a completed one reads 'In your TikTok inbox').
 */
export async function seedPosts(
  db: Kysely<Database>,
  owner: {
    userId: string;
    accountId: string;
    username: string;
    mediaId: string;
    delivery?: Delivery;
  },
  posts: readonly SeededPost[],
  timeZone = 'Europe/Paris',
): Promise<string[]> {
  const { postIds } = await createScheduleRepository(db).insertSchedule(
    {
      user_id: owner.userId,
      account_id: owner.accountId,
      publish_type: 'scheduled',
      delivery: owner.delivery ?? 'direct',
      time_zone: timeZone,
      date: null,
      time: null,
      spaced_interval: null,
      privacy_level: 'SELF_ONLY',
      allow_comment: false,
      allow_duet: false,
      allow_stitch: false,
      commercial_content: JSON.stringify({
        enabled: false,
        yourBrand: false,
        brandedContent: false,
      }),
    },
    owner.username,
    posts.map((post, index) => ({
      media_id: owner.mediaId,
      title: post.title ?? `seeded ${index}`,
      due_at: post.dueAt,
    })),
  );
  const byStatus = new Map<PostStatus, { ids: string[]; outcomes: (string | null)[] }>();
  posts.forEach((post, index) => {
    const id = postIds[index];
    if (post.status === undefined || post.status === 'pending' || id === undefined) return;
    const group = byStatus.get(post.status) ?? { ids: [], outcomes: [] };
    group.ids.push(id);
    group.outcomes.push(post.outcomeAt?.toISOString() ?? null);
    byStatus.set(post.status, group);
  });
  for (const [status, { ids, outcomes }] of byStatus) {
    // The database keeps outcome_at (migration 0027): null again for a post still publishing.
    await sql`update posts set status = ${status}, outcome_at = coalesce(given.at, posts.due_at)
      from unnest(${ids}::uuid[], ${outcomes}::timestamptz[]) as given (id, at)
      where posts.id = given.id`.execute(db);
  }
  return postIds;
}
