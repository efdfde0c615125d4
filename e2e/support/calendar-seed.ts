// Many posts for the calendar's tests, benchmark and screenshots, written straight into the real
// server's database: creating a thousand posts through uploads and the form would take minutes.
// PGlite has a single owner (the server process), so these runs use a PostgreSQL database of their
// own, created here and dropped at the end; the server is the compiled one, as everywhere in e2e/.
import { execFile } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { addDaysToDate, zonedDateTimeToUtc } from '@cadence/shared/schedule/planner';
import type { Delivery, PostStatus } from '@cadence/shared/schemas/schedule';
import { postableProbe } from '../../apps/server/src/test-support/media-fixtures.ts';
import { openTestDatabase } from '../../apps/server/src/test-support/database.ts';
import { seedPosts } from '../../apps/server/src/test-support/seed-posts.ts';
import type { RunningServer } from './server.ts';

const execFileAsync = promisify(execFile);

export interface CalendarSeed {
  account: string;
  dueAt: Date;
  status?: PostStatus;
  title?: string;
  /** 'inbox': sent as a draft to the TikTok inbox ('direct' by default). */
  delivery?: Delivery;
}

export type SeedDatabase = Awaited<ReturnType<typeof openTestDatabase>>;

/** A fresh PostgreSQL database and the server environment that points at it. */
export async function openSeedDatabase(): Promise<{
  database: SeedDatabase;
  env: NodeJS.ProcessEnv;
}> {
  const database = await openTestDatabase('postgres');
  if (database.url === null) throw new Error('expected a PostgreSQL database');
  return { database, env: { DATABASE_URL: database.url } };
}

// Covers as a creator's videos would look: a few distinct gradients, real JPEG files.
const coverColours = [
  ['0xff2d55', '0x7c3aed'],
  ['0x06b6d4', '0x1e3a8a'],
  ['0xf59e0b', '0xdc2626'],
  ['0x10b981', '0x0f766e'],
  ['0xec4899', '0xf97316'],
  ['0x6366f1', '0x0ea5e9'],
] as const;

/** The covers, written once per server: a file seeds many creators' posts on the same six. */
const coversWritten = new Map<string, Promise<string[]>>();

function writeCovers(server: RunningServer): Promise<string[]> {
  let covers = coversWritten.get(server.dataDir);
  if (!covers) {
    covers = writeCoverFiles(server);
    coversWritten.set(server.dataDir, covers);
    covers.catch(() => coversWritten.delete(server.dataDir));
  }
  return covers;
}

async function writeCoverFiles(server: RunningServer): Promise<string[]> {
  const keys: string[] = [];
  await mkdir(path.join(server.dataDir, 'media', 'seed'), { recursive: true });
  for (const [index, [from, to]] of coverColours.entries()) {
    const key = `seed/cover-${index}.jpg`;
    await execFileAsync('ffmpeg', [
      ...['-hide_banner', '-loglevel', 'error', '-y', '-f', 'lavfi'],
      ...['-i', `gradients=s=90x160:c0=${from}:c1=${to}:duration=1`, '-frames:v', '1'],
      path.join(server.dataDir, 'media', key),
    ]);
    keys.push(key);
  }
  return keys;
}

/**
 * Writes `posts` for the user with `email` (their accounts created by username when missing, each
 * post on one of six covers), in one schedule per account and cover. Returns the ids, in order.
 */
export async function seedCalendar(
  server: RunningServer,
  database: SeedDatabase,
  email: string,
  posts: readonly CalendarSeed[],
): Promise<string[]> {
  const { db } = database;
  const user = await db
    .selectFrom('user')
    .select('id')
    .where('email', '=', email)
    .executeTakeFirstOrThrow();
  const covers = await writeCovers(server);
  const mediaIds: string[] = [];
  for (const [index, key] of covers.entries()) {
    const id = `upload-seed-${user.id.slice(0, 8)}-${index}`;
    await db
      .insertInto('media')
      .values({
        id,
        user_id: user.id,
        kind: 'upload',
        original_name: `clip-${index}.mp4`,
        content_type: 'video/mp4',
        size_bytes: 4096,
        storage_key: `seed/clip-${index}.mp4`,
        thumbnail_key: key,
        duration_seconds: 12,
        width: 1080,
        height: 1920,
        has_audio: true,
        probe: JSON.stringify(postableProbe(4096)),
      })
      .onConflict((conflict) => conflict.column('id').doNothing())
      .execute();
    mediaIds.push(id);
  }
  const accountIds = new Map<string, string>();
  for (const username of new Set(posts.map((post) => post.account))) {
    const existing = await db
      .selectFrom('tiktok_accounts')
      .select('id')
      .where('user_id', '=', user.id)
      .where('username', '=', username)
      .executeTakeFirst();
    const account =
      existing ??
      (await db
        .insertInto('tiktok_accounts')
        .values({ user_id: user.id, username })
        .returning('id')
        .executeTakeFirstOrThrow());
    accountIds.set(username, account.id);
  }
  const groups = new Map<
    string,
    { indexes: number[]; account: string; mediaId: string; delivery: Delivery }
  >();
  posts.forEach((post, index) => {
    const mediaId = mediaIds[index % mediaIds.length]!;
    const delivery = post.delivery ?? 'direct';
    const key = `${post.account}|${mediaId}|${delivery}`;
    const group = groups.get(key) ?? { indexes: [], account: post.account, mediaId, delivery };
    group.indexes.push(index);
    groups.set(key, group);
  });
  const ids: string[] = new Array<string>(posts.length);
  for (const group of groups.values()) {
    const created = await seedPosts(
      db,
      {
        userId: user.id,
        accountId: accountIds.get(group.account)!,
        username: group.account,
        mediaId: group.mediaId,
        delivery: group.delivery,
      },
      group.indexes.map((index) => posts[index]!),
    );
    group.indexes.forEach((index, position) => (ids[index] = created[position]!));
  }
  return ids;
}

const captions = [
  'Recette express : pâtes au citron en 10 minutes',
  'Trois spots secrets à Lisbonne',
  'Mon matériel pour filmer au téléphone',
  'Avant / après : rénovation du balcon',
  'Q&A : vos questions sur le montage',
  'Le café parfait au V60',
];

/**
 * A creator's month around `today` (a 'yyyy-MM-dd' in `timeZone`): two accounts, two to four
 * posts a day, one crowded day and one day at TikTok's cap; past posts published (some to the
 * TikTok inbox, a few failed or cancelled), later ones pending, and one publishing right now:
 * every status a chip can show.
 */
export function sampleMonth(today: string, timeZone: string, now = new Date()): CalendarSeed[] {
  const posts: CalendarSeed[] = [];
  const times = ['09:00', '12:30', '18:00', '21:15'];
  const first = `${today.slice(0, 7)}-01`;
  for (let offset = 0; offset < 31; offset += 1) {
    const date = addDaysToDate(first, offset);
    if (!date.startsWith(today.slice(0, 7))) break;
    // The 12th is crowded; on the 19th the first account reaches TikTok's daily cap (15).
    const count = offset === 11 ? 8 : offset === 18 ? 15 : 2 + (offset % 3);
    for (let index = 0; index < count; index += 1) {
      const time =
        count <= times.length
          ? times[index]!
          : `${String(8 + index).padStart(2, '0')}:${index % 2 === 0 ? '00' : '30'}`;
      const dueAt = zonedDateTimeToUtc(date, time, timeZone);
      const past = dueAt.getTime() <= now.getTime();
      const status: PostStatus = past
        ? offset !== 18 && (offset + index) % 9 === 0
          ? 'failed'
          : offset !== 18 && (offset + index) % 13 === 0
            ? 'cancelled'
            : 'completed'
        : 'pending';
      posts.push({
        account: index % 2 === 0 || offset === 18 ? 'lea.cuisine' : 'lea.voyages',
        dueAt,
        status,
        title: captions[(offset + index) % captions.length]!,
        ...(status === 'completed' && offset !== 18 && (offset + index) % 7 === 3
          ? { delivery: 'inbox' as const }
          : {}),
      });
    }
  }
  // Not on the capped day, whose counts the calendar's tests read. A few minutes ahead: the
  // server's worker resumes a publishing post once it is due, and with no TikTok grant here it
  // would turn it 'failed' before the screenshots.
  if (today !== addDaysToDate(first, 18)) {
    posts.push({
      account: 'lea.voyages',
      dueAt: new Date(Math.floor(now.getTime() / 60_000) * 60_000 + 3 * 60_000),
      status: 'publishing',
      title: 'En direct du marché',
    });
  }
  return posts;
}
