import { sql, type Kysely, type RawBuilder, type Selectable } from 'kysely';
import type { Database } from '../../db/schema.ts';
import './export-db-types.ts';
import type { DataExportTable } from './export-db-types.ts';
import '../media/db-types.ts';
import { noLiveJob } from '../../jobs/orphans.ts';

export type DataExportRow = Selectable<DataExportTable>;

/**
 * Columns never written to an archive: encrypted tokens, PKCE verifiers, session tokens, leases.
 * A person's data is theirs, Cadence's credentials on their behalf are not (and a leaked
 * archive must not be a key to their TikTok account).
 */
const SECRET_COLUMN = /(?:_enc$|token(?!_expires)|secret|verifier|^lease_)/i;

/** One table's rows of the person, as the archive holds them. */
export interface ExportSection {
  /** File name in the archive, e.g. 'posts.json'. */
  file: string;
  rows: Record<string, unknown>[];
}

function isRow(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

function withoutSecrets(row: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(row).filter(([column]) => !SECRET_COLUMN.test(column)));
}

export function createDataExportRepository(db: Kysely<Database>) {
  /** The rows a query returns, secret columns left out. */
  async function rows(query: RawBuilder<unknown>): Promise<Record<string, unknown>[]> {
    const result = await query.execute(db);
    return result.rows.filter(isRow).map(withoutSecrets);
  }

  return {
    /** Inserts a pending export; undefined when one is already pending or running (one at a time). */
    async create(userId: string): Promise<DataExportRow | undefined> {
      return db
        .insertInto('data_exports')
        .values({ user_id: userId })
        .onConflict((conflict) =>
          conflict.column('user_id').where('status', 'in', ['pending', 'running']).doNothing(),
        )
        .returningAll()
        .executeTakeFirst();
    },

    latest(userId: string) {
      return db
        .selectFrom('data_exports')
        .selectAll()
        .where('user_id', '=', userId)
        .orderBy('created_at', 'desc')
        .limit(1)
        .executeTakeFirst();
    },

    find(id: string) {
      return db.selectFrom('data_exports').selectAll().where('id', '=', id).executeTakeFirst();
    },

    /** Takes a pending (or retried running) export for the job; undefined when it moved on. */
    claim(id: string) {
      return db
        .updateTable('data_exports')
        .set({ status: 'running', progress: 0, error: null })
        .where('id', '=', id)
        .where('status', 'in', ['pending', 'running'])
        .returningAll()
        .executeTakeFirst();
    },

    async setProgress(id: string, progress: number): Promise<void> {
      await db
        .updateTable('data_exports')
        .set({ progress })
        .where('id', '=', id)
        .where('status', '=', 'running')
        .execute();
    },

    async markReady(
      id: string,
      values: { storageKey: string; sizeBytes: number; expiresAt: Date },
    ): Promise<boolean> {
      const result = await db
        .updateTable('data_exports')
        .set({
          status: 'ready',
          progress: 100,
          storage_key: values.storageKey,
          size_bytes: values.sizeBytes,
          ready_at: sql<Date>`now()`,
          expires_at: values.expiresAt,
        })
        .where('id', '=', id)
        .where('status', '=', 'running')
        .executeTakeFirst();
      return result.numUpdatedRows > 0n;
    },

    /** Fails a pending or running export; returns its owner, or undefined when it had moved on. */
    async markFailed(id: string, error: string): Promise<string | undefined> {
      const row = await db
        .updateTable('data_exports')
        .set({ status: 'failed', error: error.slice(0, 500) })
        .where('id', '=', id)
        .where('status', 'in', ['pending', 'running'])
        .returning('user_id')
        .executeTakeFirst();
      return row?.user_id;
    },

    /**
     * Pending or running exports created before `createdBefore` that no live job of `queue` will
     * ever finish (jobs/orphans.ts). Each would hold its person's one-at-a-time slot forever.
     */
    orphaned(createdBefore: Date, queue: string) {
      return db
        .selectFrom('data_exports')
        .select('id')
        .where('status', 'in', ['pending', 'running'])
        .where('created_at', '<', createdBefore)
        .where(noLiveJob(queue, sql.ref('data_exports.id')))
        .execute();
    },

    /** Ready exports of the person other than `keepId` (a new archive replaces the old ones). */
    olderReady(userId: string, keepId: string) {
      return db
        .selectFrom('data_exports')
        .selectAll()
        .where('user_id', '=', userId)
        .where('id', '!=', keepId)
        .where('status', '=', 'ready')
        .execute();
    },

    /** Ready exports whose time is up. */
    expired(now: Date) {
      return db
        .selectFrom('data_exports')
        .selectAll()
        .where('status', '=', 'ready')
        .where('expires_at', '<=', now)
        .execute();
    },

    async markExpired(id: string): Promise<void> {
      await db
        .updateTable('data_exports')
        .set({ status: 'expired', storage_key: null })
        .where('id', '=', id)
        .execute();
    },

    /** What the archive's JSON files hold, one section per file. */
    async sections(userId: string): Promise<ExportSection[]> {
      const ofUser = (table: string) =>
        rows(sql`select * from ${sql.table(table)} where user_id = ${userId} order by created_at`);
      return [
        {
          file: 'profile.json',
          rows: await rows(
            sql`select id, name, email, "emailVerified", "isPro", "preferredLanguage", "timeZone", "createdAt", "updatedAt" from "user" where id = ${userId}`,
          ),
        },
        { file: 'accounts.json', rows: await ofUser('tiktok_accounts') },
        {
          file: 'posting-slots.json',
          rows: await rows(
            sql`select s.* from posting_slots s join tiktok_accounts a on a.id = s.account_id where a.user_id = ${userId} order by s.account_id, s.weekday, s.time`,
          ),
        },
        { file: 'media.json', rows: await ofUser('media') },
        { file: 'schedules.json', rows: await ofUser('schedules') },
        { file: 'posts.json', rows: await ofUser('posts') },
        { file: 'drafts.json', rows: await ofUser('drafts') },
        {
          file: 'draft-videos.json',
          rows: await rows(
            sql`select v.* from draft_videos v join drafts d on d.id = v.draft_id where d.user_id = ${userId} order by v.draft_id, v.position`,
          ),
        },
        { file: 'stories.json', rows: await ofUser('stories') },
        { file: 'meme-analyses.json', rows: await ofUser('meme_analyses') },
        { file: 'notifications.json', rows: await ofUser('notifications') },
        {
          file: 'settings.json',
          rows: await rows(sql`select * from notification_settings where user_id = ${userId}`),
        },
        {
          file: 'sessions.json',
          rows: await rows(
            sql`select id, "ipAddress", "userAgent", "createdAt", "expiresAt" from "session" where "userId" = ${userId} order by "createdAt"`,
          ),
        },
        { file: 'analytics/accounts.json', rows: await ofUser('analytics_accounts') },
        {
          file: 'analytics/account-snapshots.json',
          rows: await rows(
            sql`select s.* from analytics_account_snapshots s join analytics_accounts a on a.id = s.analytics_account_id where a.user_id = ${userId} order by s.analytics_account_id, s.taken_at`,
          ),
        },
        {
          file: 'analytics/videos.json',
          rows: await rows(
            sql`select * from analytics_videos where user_id = ${userId} order by posted_at`,
          ),
        },
        {
          file: 'analytics/video-snapshots.json',
          rows: await rows(
            sql`select s.* from analytics_video_snapshots s join analytics_videos v on v.id = s.video_row_id where v.user_id = ${userId} order by s.video_row_id, s.taken_at`,
          ),
        },
      ];
    },

    /** The person's stored files (media and their thumbnails), with the archive name of each. */
    async files(userId: string): Promise<{ key: string; name: string }[]> {
      const media = await db
        .selectFrom('media')
        .select(['id', 'storage_key', 'thumbnail_key'])
        .where('user_id', '=', userId)
        .orderBy('created_at')
        .execute();
      const extension = (key: string) => /\.[A-Za-z0-9]+$/.exec(key)?.[0] ?? '';
      return media.flatMap((row) => [
        { key: row.storage_key, name: `media/${row.id}${extension(row.storage_key)}` },
        ...(row.thumbnail_key
          ? [
              {
                key: row.thumbnail_key,
                name: `media/thumbnails/${row.id}${extension(row.thumbnail_key)}`,
              },
            ]
          : []),
      ]);
    },
  };
}

export type DataExportRepository = ReturnType<typeof createDataExportRepository>;
