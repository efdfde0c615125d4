import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { Database } from '../../db/schema.ts';
import '../media/db-types.ts';

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

/** The rows a query returns, secret columns left out. */
async function rows(db: Kysely<Database>, query: RawBuilder<unknown>) {
  const result = await query.execute(db);
  return result.rows.filter(isRow).map(withoutSecrets);
}

/** What the archive's JSON files hold, one section per file. */
async function archiveSections(db: Kysely<Database>, userId: string): Promise<ExportSection[]> {
  const select = (query: RawBuilder<unknown>) => rows(db, query);
  const ofUser = (table: string) =>
    select(sql`select * from ${sql.table(table)} where user_id = ${userId} order by created_at`);
  return [
    {
      file: 'profile.json',
      rows: await select(
        sql`select id, name, email, "emailVerified", "isPro", "preferredLanguage", "timeZone", "createdAt", "updatedAt" from "user" where id = ${userId}`,
      ),
    },
    { file: 'accounts.json', rows: await ofUser('tiktok_accounts') },
    {
      file: 'posting-slots.json',
      rows: await select(
        sql`select s.* from posting_slots s join tiktok_accounts a on a.id = s.account_id where a.user_id = ${userId} order by s.account_id, s.weekday, s.time`,
      ),
    },
    { file: 'media.json', rows: await ofUser('media') },
    { file: 'schedules.json', rows: await ofUser('schedules') },
    { file: 'posts.json', rows: await ofUser('posts') },
    { file: 'drafts.json', rows: await ofUser('drafts') },
    {
      file: 'draft-videos.json',
      rows: await select(
        sql`select v.* from draft_videos v join drafts d on d.id = v.draft_id where d.user_id = ${userId} order by v.draft_id, v.position`,
      ),
    },
    { file: 'stories.json', rows: await ofUser('stories') },
    { file: 'meme-analyses.json', rows: await ofUser('meme_analyses') },
    { file: 'notifications.json', rows: await ofUser('notifications') },
    {
      file: 'settings.json',
      rows: await select(sql`select * from notification_settings where user_id = ${userId}`),
    },
    {
      file: 'sessions.json',
      rows: await select(
        sql`select id, "ipAddress", "userAgent", "createdAt", "expiresAt" from "session" where "userId" = ${userId} order by "createdAt"`,
      ),
    },
    { file: 'analytics/accounts.json', rows: await ofUser('analytics_accounts') },
    {
      file: 'analytics/account-snapshots.json',
      rows: await select(
        sql`select s.* from analytics_account_snapshots s join analytics_accounts a on a.id = s.analytics_account_id where a.user_id = ${userId} order by s.analytics_account_id, s.taken_at`,
      ),
    },
    {
      file: 'analytics/videos.json',
      rows: await select(
        sql`select * from analytics_videos where user_id = ${userId} order by posted_at`,
      ),
    },
    {
      file: 'analytics/video-snapshots.json',
      rows: await select(
        sql`select s.* from analytics_video_snapshots s join analytics_videos v on v.id = s.video_row_id where v.user_id = ${userId} order by s.video_row_id, s.taken_at`,
      ),
    },
  ];
}

/** The person's stored files (media and their thumbnails), with the archive name of each. */
async function archiveFiles(
  db: Kysely<Database>,
  userId: string,
): Promise<{ key: string; name: string }[]> {
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
}

/** What a person's data archive holds: their rows, table by table, and their stored files. */
export function createExportArchiveQueries(db: Kysely<Database>) {
  return {
    sections: (userId: string) => archiveSections(db, userId),
    files: (userId: string) => archiveFiles(db, userId),
  };
}
