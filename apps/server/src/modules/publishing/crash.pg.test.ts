// Crash test: the worker runs as a real child process (the compiled `npm run worker`, `serverEntry`)
// against PostgreSQL and a standalone TikTok sandbox that outlives it. The worker is SIGKILLed
// mid-upload and mid-polling, restarted, and every post must reach TikTok exactly once.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootstrap } from '../../bootstrap.ts';
import { loadConfig } from '../../config.ts';
import type { AppContext } from '../../context.ts';
import { mediaKey } from '../../storage/media-storage.ts';
import { openTestDatabase } from '../../test-support/database.ts';
import { postableProbe } from '../../test-support/media-fixtures.ts';
import { serverEntry } from '../../test-support/server-process.ts';
import {
  CLIENT_KEY,
  CLIENT_SECRET,
  connectAccount,
  fakeMp4,
  pollUntil,
  sha256,
  startSandboxKit,
  type SandboxKit,
} from '../../tiktok/sandbox-test-kit.ts';
import { tokenUpdateFrom } from '../accounts/token-service.ts';
import { scheduleBody } from '../schedules/test-kit.ts';

const repoRoot = path.resolve(import.meta.dirname, '../../../../..');
const VIDEO_BYTES = 21 * 1024 * 1024; // two chunks (10 MB + 11 MiB remainder)

// Needs PostgreSQL (a second process cannot open PGlite): runs in the server:postgres project only.
describe('worker crashes', () => {
  let kit: SandboxKit;
  let context: AppContext & { shutdown(): Promise<void> };
  let dataDir: string;
  let env: NodeJS.ProcessEnv;
  let worker: ChildProcess | null = null;
  const workerLog: string[] = [];
  let workerEntry: string[] = [];

  beforeAll(async () => {
    workerEntry = await serverEntry('worker');
    // Latency widens the windows the test kills the worker in; processing time widens polling.
    kit = await startSandboxKit({ processingMs: 5_000 });
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'cadence-crash-'));
    const database = await openTestDatabase('postgres');
    if (database.url === null) throw new Error('PostgreSQL expected');
    env = {
      NODE_ENV: 'test',
      LOG_LEVEL: 'warn',
      DATA_DIR: dataDir,
      DATABASE_URL: database.url,
      PUBLIC_URL: 'http://127.0.0.1:3999',
      TOKEN_ENCRYPTION_KEY: randomBytes(32).toString('hex'),
      SESSION_SECRET: randomBytes(32).toString('hex'),
      TIKTOK_CLIENT_KEY: CLIENT_KEY,
      TIKTOK_CLIENT_SECRET: CLIENT_SECRET,
      TIKTOK_API_BASE: kit.sandbox.baseUrl,
      TIKTOK_AUTH_BASE: kit.sandbox.baseUrl,
    };
    context = await bootstrap(loadConfig(env), {
      runWorkers: false,
      logger: pino({ level: 'silent' }),
      database,
    });
  }, 60_000);

  afterAll(async () => {
    worker?.kill('SIGKILL');
    await context.shutdown();
    await kit.sandbox.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  function startWorker(): ChildProcess {
    const child = spawn(process.execPath, workerEntry, {
      cwd: repoRoot,
      env: { ...process.env, ...env, TEST_DATABASE: undefined },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout?.on('data', (chunk: Buffer) => workerLog.push(chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => workerLog.push(chunk.toString()));
    return child;
  }

  async function kill(child: ChildProcess): Promise<void> {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
  }

  async function insertUser(): Promise<string> {
    const id = `user-${randomBytes(6).toString('hex')}`;
    const now = new Date();
    await context.database.db
      .insertInto('user')
      .values({
        id,
        name: 'Crash',
        email: `${id}@example.com`,
        emailVerified: false,
        createdAt: now,
        updatedAt: now,
      })
      .execute();
    return id;
  }

  /** A connected account whose tokens (encrypted with the worker's key) come from the sandbox. */
  async function insertAccount(userId: string, username: string): Promise<string> {
    const { tokens } = await connectAccount(kit, { username });
    const row = await context.accountRepository.insert(userId, username);
    await context.accountRepository.markConnected(
      row.id,
      { openId: tokens.openId, username, displayName: username, avatarUrl: null },
      tokenUpdateFrom(context.cipher, tokens),
    );
    return row.id;
  }

  /** A fake MP4 stored as the user's media (no ffprobe: the sandbox checks only the header). */
  async function insertVideo(
    userId: string,
    name: string,
  ): Promise<{ mediaId: string; sha256: string }> {
    const bytes = fakeMp4(VIDEO_BYTES);
    const mediaId = `upload-${name}`;
    const key = mediaKey(userId, mediaId, 'mp4');
    await context.storage.put(key, Readable.from([bytes]), { contentType: 'video/mp4' });
    await context.database.db
      .insertInto('media')
      .values({
        id: mediaId,
        user_id: userId,
        kind: 'upload',
        original_name: `${name}.mp4`,
        content_type: 'video/mp4',
        size_bytes: bytes.length,
        storage_key: key,
        thumbnail_key: null,
        duration_seconds: 5,
        width: 1080,
        height: 1920,
        has_audio: false,
        probe: JSON.stringify(postableProbe(bytes.length)),
      })
      .execute();
    return { mediaId, sha256: sha256(bytes) };
  }

  const postRows = () =>
    context.database.db
      .selectFrom('posts')
      .select([
        'id',
        'title',
        'status',
        'fail_reason',
        'uploaded_bytes',
        'video_size',
        'publish_id',
      ])
      .orderBy('title')
      .execute();

  it('publishes every post exactly once across SIGKILLs mid-upload and mid-polling', async () => {
    const userId = await insertUser();
    const accountId = await insertAccount(userId, 'crash_creator');
    const videos = [];
    for (const name of ['p1', 'p2', 'p3']) videos.push(await insertVideo(userId, name));
    await context.schedules.create(userId, {
      ...scheduleBody(
        accountId,
        videos.map((video) => video.mediaId),
      ),
      posts: videos.map((video, index) => ({
        mediaId: video.mediaId,
        title: `crash ${index + 1}`,
      })),
    });
    kit.sandbox.state.control.setLatency(700);

    // 1. Kill while a post has its first chunk at TikTok but not its second.
    worker = startWorker();
    await pollUntil(
      postRows,
      (rows) =>
        rows.some((row) => row.uploaded_bytes > 0 && row.uploaded_bytes < (row.video_size ?? 0)),
      { timeoutMs: 30_000, intervalMs: 50 },
    );
    await kill(worker);
    const midUpload = await postRows();
    expect(midUpload.some((row) => row.status === 'publishing' && row.publish_id !== null)).toBe(
      true,
    );

    // 2. Restart; kill again once a post is fully uploaded and waiting for TikTok's processing.
    worker = startWorker();
    await pollUntil(
      postRows,
      (rows) =>
        rows.some((row) => row.status === 'publishing' && row.uploaded_bytes === row.video_size),
      { timeoutMs: 30_000, intervalMs: 50 },
    );
    await kill(worker);

    // 3. Restart and let everything finish.
    worker = startWorker();
    const finished = await pollUntil(
      postRows,
      (rows) => rows.every((row) => row.status === 'completed' || row.status === 'failed'),
      { timeoutMs: 60_000, intervalMs: 250 },
    ).catch((error: unknown) => {
      throw new Error(`${String(error)}\nworker log:\n${workerLog.join('')}`);
    });
    expect(finished.map((row) => [row.title, row.status, row.fail_reason])).toEqual([
      ['crash 1', 'completed', null],
      ['crash 2', 'completed', null],
      ['crash 3', 'completed', null],
    ]);
    const ledger = kit.sandbox.state.ledger().posts;
    for (const [index, video] of videos.entries()) {
      const published = ledger.filter((post) => post.post_info?.title === `crash ${index + 1}`);
      expect(published, `crash ${index + 1}`).toHaveLength(1);
      expect(published[0]?.sha256).toBe(video.sha256);
      expect(published[0]?.status).toBe('PUBLISH_COMPLETE');
    }
  }, 150_000);
});
