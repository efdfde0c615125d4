import type { CommercialContent, Delivery } from '@cadence/shared/schemas/schedule';
import { sql, type Kysely, type Transaction } from 'kysely';
import type { Database } from '../../db/schema.ts';
import '../schedules/db-types.ts';

/** A draft's content as stored: the videos in order with their captions, and the settings. */
export interface DraftContent {
  accountId: string | null;
  videos: readonly { mediaId: string; title: string; coverTimestampMs: number | null }[];
  privacyLevel: string | null;
  allowComment: boolean;
  allowDuet: boolean;
  allowStitch: boolean;
  commercialContent: CommercialContent;
  isAigc: boolean;
  delivery: Delivery;
}

export interface DraftRow {
  id: string;
  account_id: string | null;
  privacy_level: string | null;
  allow_comment: boolean;
  allow_duet: boolean;
  allow_stitch: boolean;
  commercial_content: CommercialContent;
  is_aigc: boolean;
  delivery: Delivery;
  created_at: Date;
  updated_at: Date;
  videos: {
    media_id: string;
    title: string;
    thumbnail_key: string | null;
    cover_timestamp_ms: number | null;
  }[];
}

async function writeVideos(
  trx: Transaction<Database>,
  draftId: string,
  videos: DraftContent['videos'],
): Promise<void> {
  await trx.deleteFrom('draft_videos').where('draft_id', '=', draftId).execute();
  if (videos.length === 0) return;
  await trx
    .insertInto('draft_videos')
    .values(
      videos.map((video, position) => ({
        draft_id: draftId,
        position,
        media_id: video.mediaId,
        title: video.title,
        cover_timestamp_ms: video.coverTimestampMs,
      })),
    )
    .execute();
}

function settingsOf(content: DraftContent) {
  return {
    account_id: content.accountId,
    privacy_level: content.privacyLevel,
    allow_comment: content.allowComment,
    allow_duet: content.allowDuet,
    allow_stitch: content.allowStitch,
    commercial_content: JSON.stringify(content.commercialContent),
    is_aigc: content.isAigc,
    delivery: content.delivery,
  };
}

/**
 * The drafts and their videos from one snapshot: read apart, a draft scheduled in between (its
 * videos deleted with it) came back without videos, and a second click on 'Schedule' was told
 * the draft was incomplete (400) instead of gone (404).
 */
function rows(db: Kysely<Database>, userId: string, id?: string, limit = 1): Promise<DraftRow[]> {
  return db
    .transaction()
    .setIsolationLevel('repeatable read')
    .execute((trx) => rowsIn(trx, userId, id, limit));
}

async function rowsIn(
  trx: Transaction<Database>,
  userId: string,
  id: string | undefined,
  limit: number,
): Promise<DraftRow[]> {
  let query = trx
    .selectFrom('drafts')
    .select([
      'drafts.id',
      'drafts.account_id',
      'drafts.privacy_level',
      'drafts.allow_comment',
      'drafts.allow_duet',
      'drafts.allow_stitch',
      'drafts.commercial_content',
      'drafts.is_aigc',
      'drafts.delivery',
      'drafts.created_at',
      'drafts.updated_at',
    ])
    .where('drafts.user_id', '=', userId);
  if (id !== undefined) query = query.where('drafts.id', '=', id);
  const drafts = await query
    .orderBy('drafts.updated_at', 'desc')
    .orderBy('drafts.id', 'desc')
    .limit(limit)
    .execute();
  if (drafts.length === 0) return [];
  const videos = await trx
    .selectFrom('draft_videos')
    .innerJoin('media', 'media.id', 'draft_videos.media_id')
    .select([
      'draft_videos.draft_id',
      'draft_videos.media_id',
      'draft_videos.title',
      'draft_videos.cover_timestamp_ms',
      'media.thumbnail_key',
    ])
    .where(
      'draft_videos.draft_id',
      'in',
      drafts.map((draft) => draft.id),
    )
    .orderBy('draft_videos.position')
    .execute();
  return drafts.map((draft) => ({
    ...draft,
    videos: videos
      .filter((video) => video.draft_id === draft.id)
      .map(({ media_id, title, thumbnail_key, cover_timestamp_ms }) => ({
        media_id,
        title,
        thumbnail_key,
        cover_timestamp_ms,
      })),
  }));
}

/** SQL for drafts. Every query is scoped by user id. */
export function createDraftRepository(db: Kysely<Database>) {
  return {
    /** The user's drafts, most recently saved first, at most `limit`. */
    list: (userId: string, limit: number) => rows(db, userId, undefined, limit),

    async find(userId: string, id: string): Promise<DraftRow | undefined> {
      return (await rows(db, userId, id))[0];
    },

    async count(userId: string): Promise<number> {
      const row = await db
        .selectFrom('drafts')
        .select((eb) => eb.fn.countAll<number>().as('count'))
        .where('user_id', '=', userId)
        .executeTakeFirstOrThrow();
      return Number(row.count);
    },

    async insert(userId: string, content: DraftContent): Promise<string> {
      return db.transaction().execute(async (trx) => {
        const { id } = await trx
          .insertInto('drafts')
          .values({ user_id: userId, ...settingsOf(content) })
          .returning('id')
          .executeTakeFirstOrThrow();
        await writeVideos(trx, id, content.videos);
        return id;
      });
    },

    /** Replaces a draft's content; false when the user has no such draft. */
    async update(userId: string, id: string, content: DraftContent): Promise<boolean> {
      return db.transaction().execute(async (trx) => {
        const updated = await trx
          .updateTable('drafts')
          .set({ ...settingsOf(content), updated_at: sql<Date>`clock_timestamp()` })
          .where('user_id', '=', userId)
          .where('id', '=', id)
          .executeTakeFirst();
        if (updated.numUpdatedRows === 0n) return false;
        await writeVideos(trx, id, content.videos);
        return true;
      });
    },

    async delete(userId: string, id: string): Promise<boolean> {
      const result = await db
        .deleteFrom('drafts')
        .where('user_id', '=', userId)
        .where('id', '=', id)
        .executeTakeFirst();
      return result.numDeletedRows > 0n;
    },
  };
}

export type DraftRepository = ReturnType<typeof createDraftRepository>;
