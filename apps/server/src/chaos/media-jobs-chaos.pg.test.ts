// Chaos test of the media jobs: a story render and a meme analysis, each in a real worker process
// (the `npm run worker` entry) on PostgreSQL, SIGKILLed while its ffmpeg runs. After the restart
// each resumes or fails with a reason, is done once (one result), and no scratch file, partial
// upload or orphaned media file is left behind.
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootstrap } from '../bootstrap.ts';
import { loadConfig } from '../config.ts';
import type { AppContext } from '../context.ts';
import { openTestDatabase } from '../test-support/database.ts';
import { makeVideo } from '../test-support/media-fixtures.ts';
import { filesUnder, waitUntil, WorkerPool } from './chaos-kit.ts';

/** Pids of running ffmpeg processes and their parents, from /proc. */
function ffmpegParents(): Map<number, number> {
  const parents = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // "pid (comm) state ppid …": comm may hold spaces, so split after its closing parenthesis.
      const close = stat.lastIndexOf(')');
      const comm = stat.slice(stat.indexOf('(') + 1, close);
      const ppid = Number(stat.slice(close + 2).split(' ')[1]);
      if (comm === 'ffmpeg') parents.set(Number(entry), ppid);
    } catch {
      // The process ended while we looked.
    }
  }
  return parents;
}

/** tsx's compile cache, named after the user; it lives in the temp directory too. */
const TSX_CACHE = `tsx-${process.getuid?.() ?? 0}`;

/**
 * Files and directories under `dir` a crash may have left (none belong there when idle): all
 * but tsx's cache and the scratch root itself.
 */
function leftovers(dir: string, livePids: readonly number[] = []): string[] {
  const root = path.join(dir, 'cadence-work');
  // A running process's own (empty) scratch root stays while it lives.
  const liveRoot = (file: string) =>
    path.dirname(file) === root &&
    livePids.some((pid) => path.basename(file).startsWith(`${pid}-`));
  return readdirSync(dir)
    .filter((entry) => entry !== TSX_CACHE)
    .flatMap((entry) => [path.join(dir, entry), ...filesUnder(path.join(dir, entry))])
    .filter((file) => file !== root && !liveRoot(file));
}

describe('story renders and meme analyses under SIGKILL', () => {
  let context: AppContext & { shutdown(): Promise<void> };
  let dataDir: string;
  let tmpDir: string;
  let pool: WorkerPool | null = null;

  beforeAll(async () => {
    await WorkerPool.prepare();
    dataDir = path.join(os.tmpdir(), `cadence-chaos-media-${randomBytes(4).toString('hex')}`);
    // The workers' scratch space (os.tmpdir() honours TMPDIR): counted before and after.
    tmpDir = path.join(dataDir, 'tmp');
    mkdirSync(tmpDir, { recursive: true });
    // Workers share the warm tsx cache of the usual temp directory: compiling every source again
    // in a fresh one would slow each start to a crawl on a busy machine.
    const tsxCache = path.join(os.tmpdir(), TSX_CACHE);
    mkdirSync(tsxCache, { recursive: true });
    symlinkSync(tsxCache, path.join(tmpDir, TSX_CACHE));
    const database = await openTestDatabase('postgres');
    if (database.url === null) throw new Error('PostgreSQL expected');
    const env: NodeJS.ProcessEnv = {
      NODE_ENV: 'test',
      LOG_LEVEL: 'info',
      DATA_DIR: path.join(dataDir, 'data'),
      TMPDIR: tmpDir,
      DATABASE_URL: database.url,
      PUBLIC_URL: 'http://127.0.0.1:3999',
      TOKEN_ENCRYPTION_KEY: randomBytes(32).toString('hex'),
      SESSION_SECRET: randomBytes(32).toString('hex'),
      MEME_COMPILE_PRESET: 'ultrafast',
      // A killed worker's render or analysis is re-queued by its successor a lease and 5 s
      // later (recoveryDelaySeconds, recoveryOf): a 10 s lease rather than the production
      // 60 s, still renewed every 0.5 s. The same recovery path, with a shorter idle wait.
      MEDIA_JOB_LEASE_MS: '10000',
    };
    context = await bootstrap(loadConfig(env), {
      runWorkers: false,
      logger: pino({ level: 'silent' }),
      database,
    });
    pool = new WorkerPool(env, 2);
  }, 60_000);

  afterAll(async () => {
    await pool?.stopAll();
    await context.shutdown();
    rmSync(dataDir, { recursive: true, force: true });
  });

  async function proUser(): Promise<string> {
    const id = `chaos-${randomBytes(6).toString('hex')}`;
    const now = new Date();
    await context.database.db
      .insertInto('user')
      .values({
        id,
        name: 'Chaos',
        email: `${id}@example.com`,
        emailVerified: false,
        isPro: true,
        createdAt: now,
        updatedAt: now,
      })
      .execute();
    return id;
  }

  async function upload(userId: string, name: string, durationSeconds: number): Promise<string> {
    const source = await makeVideo(path.join(dataDir, `${name}.mp4`), {
      width: 640,
      height: 360,
      durationSeconds,
      source: 'testsrc2',
      audio: true,
    });
    const media = await context.media.createFromFile(userId, {
      localPath: source,
      kind: 'upload',
      originalName: `${name}.mp4`,
    });
    return media.id;
  }

  /** Waits until one worker runs ffmpeg for the job, then SIGKILLs that worker (not ffmpeg). */
  async function killWorkerRunningFfmpeg(workers: WorkerPool, what: string): Promise<void> {
    let slot = -1;
    await waitUntil(
      () => {
        const parents = new Set(ffmpegParents().values());
        slot = workers.pids().findIndex((pid) => parents.has(pid));
        return slot >= 0;
      },
      60_000,
      `a worker running ffmpeg for ${what}`,
    );
    await workers.killSlot(slot);
  }

  it('resumes or fails cleanly, once, leaving no scratch or partial file', async () => {
    const userId = await proUser();
    const top = await upload(userId, 'top', 15);
    const bottom = await upload(userId, 'bottom', 15);
    const memeSource = await upload(userId, 'meme', 45);
    const mediaDir = path.join(dataDir, 'data', 'media');
    const before = { tmp: leftovers(tmpDir), media: filesUnder(mediaDir).length };
    expect(before.tmp).toEqual([]);

    const workers = pool;
    if (workers === null) throw new Error('no worker pool');
    workers.start();
    const started = Date.now();
    const db = context.database.db;
    try {
      // A busy machine can take minutes to start both; one is enough to take the jobs.
      await waitUntil(() => workers.readyCount() > 0, 240_000, 'a worker ready', 200);
      // A story render, killed once its ffmpeg runs and progress shows.
      const [story] = await context.stories.create(userId, {
        topMediaIds: [top],
        bottomMediaIds: [bottom],
        mixBottomAudio: false,
      });
      if (story === undefined) throw new Error('no story');
      await waitUntil(
        async () => {
          const row = await db
            .selectFrom('stories')
            .select(['status', 'progress'])
            .where('id', '=', story.id)
            .executeTakeFirst();
          return row?.status === 'rendering' && row.progress > 0;
        },
        60_000,
        'the story to render',
      );
      await killWorkerRunningFfmpeg(workers, 'the story');

      // A meme analysis of an uploaded video, killed while it analyses.
      const analysis = await context.memes.create(userId, {
        source: { type: 'media', mediaId: memeSource },
        layout: 'crop',
      });
      await waitUntil(
        async () => {
          const row = await db
            .selectFrom('meme_analyses')
            .select('status')
            .where('id', '=', analysis.id)
            .executeTakeFirst();
          return row?.status === 'analysing';
        },
        60_000,
        'the analysis to start',
      );
      await killWorkerRunningFfmpeg(workers, 'the analysis');

      const terminal = ['completed', 'failed', 'cancelled'];
      await waitUntil(
        async () => {
          const storyRow = await db
            .selectFrom('stories')
            .select('status')
            .where('id', '=', story.id)
            .executeTakeFirst();
          const memeRow = await db
            .selectFrom('meme_analyses')
            .select('status')
            .where('id', '=', analysis.id)
            .executeTakeFirst();
          return (
            terminal.includes(storyRow?.status ?? '') && terminal.includes(memeRow?.status ?? '')
          );
        },
        // A bound for a stuck job, not a target (the wait ends as soon as both are done):
        // ffmpeg shares the cores with a browser file (the files run longest first) and other
        // runs on the machine, which can make it several times slower.
        360_000,
        'the story and the analysis to finish',
        500,
      );
      // Scratch space is freed when a job step ends: wait for idle workers to have cleaned up.
      await waitUntil(
        () => leftovers(tmpDir, workers.pids()).length === 0,
        10_000,
        'scratch files to go',
      ).catch(() => undefined);

      const storyRow = await db
        .selectFrom('stories')
        .selectAll()
        .where('id', '=', story.id)
        .executeTakeFirstOrThrow();
      const memeRow = await db
        .selectFrom('meme_analyses')
        .selectAll()
        .where('id', '=', analysis.id)
        .executeTakeFirstOrThrow();
      const results = await db
        .selectFrom('media')
        .select(['id', 'kind', 'storage_key'])
        .where('user_id', '=', userId)
        .execute();
      const keys = new Set(results.flatMap((row) => [row.storage_key]));
      const thumbnails = await db
        .selectFrom('media')
        .select('thumbnail_key')
        .where('user_id', '=', userId)
        .execute();
      for (const row of thumbnails) if (row.thumbnail_key !== null) keys.add(row.thumbnail_key);
      const stored = filesUnder(mediaDir).filter((file) => !readdirSafe(file));
      // Extract thumbnails live under the analysis they belong to, not in the media table.
      const analysisDir = `users/${userId}/memes/${analysis.id}/`;
      const orphaned = stored.filter((file) => {
        const key = path.relative(mediaDir, file);
        return !keys.has(key) && !key.startsWith(analysisDir);
      });
      const partials = stored.filter((file) => file.endsWith('.partial'));
      const scratch = leftovers(tmpDir, workers.pids());
      const orphanFfmpeg = [...ffmpegParents().entries()].filter(([, ppid]) => ppid === 1);

      console.log(
        [
          'media jobs chaos (2 worker processes, PostgreSQL):',
          `  story: ${storyRow.status}${storyRow.fail_reason ? ` (${storyRow.fail_reason})` : ''}; meme analysis: ${memeRow.status}${memeRow.fail_reason ? ` (${memeRow.fail_reason})` : ''}`,
          `  kills ${workers.kills.length}, unexpected exits ${workers.unexpectedExits.length}, duration ${((Date.now() - started) / 1000).toFixed(1)} s`,
          `  story results ${results.filter((row) => row.kind === 'story').length}, compilations ${results.filter((row) => row.kind !== 'story' && row.kind !== 'upload').length}`,
          `  scratch entries left ${scratch.length}, partial files ${partials.length}, orphaned media files ${orphaned.length} ${JSON.stringify(orphaned.map((file) => path.relative(mediaDir, file)))}, orphaned ffmpeg ${orphanFfmpeg.length}`,
        ].join('\n'),
      );

      expect(workers.kills).toHaveLength(2);
      expect(workers.unexpectedExits).toEqual([]);
      expect(['completed', 'failed']).toContain(storyRow.status);
      if (storyRow.status === 'failed') expect(storyRow.fail_reason).not.toBeNull();
      else expect(results.filter((row) => row.kind === 'story')).toHaveLength(1);
      expect(['completed', 'failed']).toContain(memeRow.status);
      if (memeRow.status === 'failed') expect(memeRow.fail_reason).not.toBeNull();
      expect(scratch).toEqual([]);
      expect(partials).toEqual([]);
      expect(orphaned).toEqual([]);
    } catch (error) {
      const stories = await db
        .selectFrom('stories')
        .select(['status', 'progress', 'fail_reason'])
        .execute();
      const memes = await db
        .selectFrom('meme_analyses')
        .select(['status', 'progress', 'fail_reason'])
        .execute();
      throw new Error(
        [
          String(error),
          `after ${((Date.now() - started) / 1000).toFixed(1)} s: stories ${JSON.stringify(stories)}, analyses ${JSON.stringify(memes)}`,
          `scratch entries: ${JSON.stringify(leftovers(tmpDir, workers.pids()))}`,
          `worker log:\n${workers.output()}`,
        ].join('\n'),
      );
    }
  }, 900_000);
});

function readdirSafe(file: string): boolean {
  try {
    readdirSync(file);
    return true;
  } catch {
    return false;
  }
}
