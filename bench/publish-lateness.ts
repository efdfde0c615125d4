/**
 * Publish lateness benchmark: N posts due in the same minute over M sandbox accounts (standalone
 * sandbox with 50 ms latency per request), lateness = TikTok's video-init time − due time, read
 * from the sandbox ledger. Runs on PGlite (embedded worker, in this process) and on PostgreSQL
 * (two `npm run worker` child processes). Baselines from the same run: a no-op pg-boss job with
 * the same startAfter (the queue's own lateness), and the floor TikTok's 6 inits/min/token puts
 * under any publisher. `npx tsx bench/publish-lateness.ts [--posts 2000] [--accounts 200]
 * [--latency 50] [--only pglite|postgres] [--quick]`
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Readable } from 'node:stream';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import pino from 'pino';
import { bootstrap } from '../apps/server/src/bootstrap.ts';
import { loadConfig } from '../apps/server/src/config.ts';
import type { AppContext } from '../apps/server/src/context.ts';
import { tokenUpdateFrom } from '../apps/server/src/modules/accounts/token-service.ts';
import {
  enqueuePublish,
  PUBLISH_FETCH,
  startPublishingWorkers,
} from '../apps/server/src/modules/publishing/jobs.ts';
import {
  INIT_WINDOW_MS,
  INITS_PER_WINDOW,
} from '../apps/server/src/modules/publishing/repository.ts';
import { createScheduleRepository } from '../apps/server/src/modules/schedules/repository.ts';
import { mediaKey } from '../apps/server/src/storage/media-storage.ts';
import { openTestDatabase } from '../apps/server/src/test-support/database.ts';
import { postableProbe } from '../apps/server/src/test-support/media-fixtures.ts';
import { ensureServerBuild } from '../scripts/server-build.mjs';
import {
  CLIENT_KEY,
  CLIENT_SECRET,
  connectAccount,
  fakeMp4,
  startSandboxKit,
  type SandboxKit,
} from '../apps/server/src/tiktok/sandbox-test-kit.ts';

const repoRoot = resolve(import.meta.dirname, '..');

export interface Percentiles {
  p50: number;
  p99: number;
  max: number;
}

export interface LatenessResult {
  database: 'pglite' | 'postgres';
  posts: number;
  published: number;
  failed: number;
  lateness: Percentiles;
  noopLateness: Percentiles;
  rateLimitFloor: Percentiles;
}

function percentiles(valuesMs: number[]): Percentiles {
  const sorted = [...valuesMs].sort((a, b) => a - b);
  const at = (q: number) =>
    sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] ?? NaN;
  return { p50: at(0.5), p99: at(0.99), max: sorted.at(-1) ?? NaN };
}

/** The lateness no publisher can beat: the k-th post of an account waits floor(k/6) windows. */
function rateLimitFloor(postsPerAccount: number[]): Percentiles {
  const floors: number[] = [];
  for (const count of postsPerAccount) {
    for (let k = 0; k < count; k++) floors.push(Math.floor(k / INITS_PER_WINDOW) * INIT_WINDOW_MS);
  }
  return percentiles(floors);
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

function formatRow(label: string, p: Percentiles): string {
  return `  ${label.padEnd(26)} p50 ${seconds(p.p50).padStart(9)}  p99 ${seconds(p.p99).padStart(9)}  max ${seconds(p.max).padStart(9)}`;
}

async function waitFor(
  check: () => Promise<boolean>,
  timeoutMs: number,
  what: string,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((done) => setTimeout(done, 250));
  }
}

/** Lateness of a no-op job with the same startAfter: what the queue alone costs. */
async function noopLateness(
  context: AppContext,
  count: number,
  loops: number,
): Promise<Percentiles> {
  const queue = `bench.noop-${randomBytes(4).toString('hex')}`;
  await context.boss.createQueue(queue);
  const dueAt = new Date(Date.now() + 3_000);
  const started: number[] = [];
  for (let index = 0; index < count; index += 500) {
    const batch = Array.from({ length: Math.min(500, count - index) }, () => ({
      name: queue,
      data: {},
      startAfter: dueAt,
    }));
    await context.boss.insert(batch);
  }
  // The publisher's own fetch settings, so the baseline is the queue cost the publisher pays.
  for (let loop = 0; loop < loops; loop++) {
    await context.boss.work(
      queue,
      {
        batchSize: PUBLISH_FETCH.batchSize,
        pollingIntervalSeconds: PUBLISH_FETCH.pollingIntervalSeconds,
      },
      async (jobs) => {
        for (const _job of jobs) started.push(Date.now() - dueAt.getTime());
      },
    );
  }
  await waitFor(async () => started.length >= count, 120_000, 'no-op jobs');
  await context.boss.offWork(queue);
  return percentiles(started);
}

interface Fixture {
  titlesDue: Map<string, number>;
  postsPerAccount: number[];
}

/** Users, accounts (tokens from the sandbox), one tiny video per account, posts due at `dueAt`. */
async function seed(
  context: AppContext,
  kit: SandboxKit,
  accounts: number,
  posts: number,
  dueAt: Date,
  enqueue: boolean,
): Promise<Fixture> {
  const db = context.database.db;
  const schedules = createScheduleRepository(db);
  const userId = `bench-${randomBytes(6).toString('hex')}`;
  const now = new Date();
  await db
    .insertInto('user')
    .values({
      id: userId,
      name: 'Bench',
      email: `${userId}@example.com`,
      emailVerified: false,
      createdAt: now,
      updatedAt: now,
    })
    .execute();
  const titlesDue = new Map<string, number>();
  const postsPerAccount: number[] = [];
  const runTag = randomBytes(3).toString('hex');
  for (let a = 0; a < accounts; a++) {
    const username = `bench_${runTag}_${a}`;
    const { tokens } = await connectAccount(kit, { username });
    const account = await context.accountRepository.insert(userId, username);
    await context.accountRepository.markConnected(
      account.id,
      { openId: tokens.openId, username, displayName: username, avatarUrl: null },
      tokenUpdateFrom(context.cipher, tokens),
    );
    const bytes = fakeMp4(4096);
    const mediaId = `upload-${runTag}-${a}`;
    const key = mediaKey(userId, mediaId, 'mp4');
    await context.storage.put(key, Readable.from([bytes]), { contentType: 'video/mp4' });
    await db
      .insertInto('media')
      .values({
        id: mediaId,
        user_id: userId,
        kind: 'upload',
        original_name: 'bench.mp4',
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
    const count = Math.floor(posts / accounts) + (a < posts % accounts ? 1 : 0);
    postsPerAccount.push(count);
    const newPosts = Array.from({ length: count }, (_, k) => {
      const title = `bench ${runTag} ${a}/${k}`;
      titlesDue.set(title, dueAt.getTime());
      return { media_id: mediaId, title, due_at: dueAt };
    });
    const { postIds } = await schedules.insertSchedule(
      {
        user_id: userId,
        account_id: account.id,
        publish_type: 'scheduled',
        time_zone: 'UTC',
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
      username,
      newPosts,
    );
    if (enqueue) for (const id of postIds) await enqueuePublish(context.boss, id, dueAt);
  }
  return { titlesDue, postsPerAccount };
}

function measure(kit: SandboxKit, fixture: Fixture): number[] {
  const lateness: number[] = [];
  for (const post of kit.sandbox.state.ledger().posts) {
    const due = fixture.titlesDue.get(post.post_info?.title ?? '');
    if (due !== undefined) lateness.push(Date.parse(post.init_at) - due);
  }
  return lateness;
}

async function postCounts(
  context: AppContext,
): Promise<{ done: number; failed: number; total: number }> {
  const rows = await context.database.db.selectFrom('posts').select(['status']).execute();
  return {
    done: rows.filter((row) => row.status === 'completed').length,
    failed: rows.filter((row) => row.status === 'failed').length,
    total: rows.length,
  };
}

async function runOne(
  kind: 'pglite' | 'postgres',
  options: { posts: number; accounts: number; latencyMs: number; workers: number },
): Promise<LatenessResult> {
  const kit = await startSandboxKit({ logger: false });
  const dataDir = mkdtempSync(join(tmpdir(), 'cadence-bench-'));
  const database = await openTestDatabase(kind);
  const env: NodeJS.ProcessEnv = {
    NODE_ENV: 'test',
    LOG_LEVEL: 'info',
    DATA_DIR: dataDir,
    PUBLIC_URL: 'http://127.0.0.1:3999',
    TOKEN_ENCRYPTION_KEY: randomBytes(32).toString('hex'),
    SESSION_SECRET: randomBytes(32).toString('hex'),
    TIKTOK_CLIENT_KEY: CLIENT_KEY,
    TIKTOK_CLIENT_SECRET: CLIENT_SECRET,
    TIKTOK_API_BASE: kit.sandbox.baseUrl,
    TIKTOK_AUTH_BASE: kit.sandbox.baseUrl,
    ...(database.url !== null && { DATABASE_URL: database.url }),
  };
  const logger = pino({ level: 'warn' });
  const context = await bootstrap(loadConfig(env), { runWorkers: false, logger, database });
  const children: ChildProcess[] = [];
  try {
    const noop = await noopLateness(
      context,
      options.posts,
      PUBLISH_FETCH.loops * (kind === 'postgres' ? options.workers : 1),
    );
    if (kind === 'postgres') {
      // Compiled workers, as `npm run worker` runs them (rebuilt first if their sources changed).
      await ensureServerBuild();
      for (let w = 0; w < options.workers; w++) {
        const child = spawn(
          process.execPath,
          ['--enable-source-maps', 'apps/server/dist/worker.js'],
          {
            cwd: repoRoot,
            env: { ...process.env, ...env },
            stdio: ['ignore', 'pipe', 'inherit'],
          },
        );
        const ready = new Promise<void>((done) => {
          child.stdout?.on('data', (chunk: Buffer) => {
            if (chunk.toString().includes('worker ready')) done();
          });
        });
        children.push(child);
        await ready;
      }
    }
    // Seeding 200 accounts takes a while: put the due time after it, in the same minute for all.
    const seedMs = options.accounts * 60 + 5_000;
    const dueAt = new Date(Date.now() + seedMs);
    const fixture = await seed(context, kit, options.accounts, options.posts, dueAt, true);
    if (Date.now() > dueAt.getTime())
      console.warn('  (seeding overran the due time; lateness includes it)');
    kit.sandbox.state.control.setLatency(options.latencyMs);
    if (kind === 'pglite') {
      const deps = {
        boss: context.boss,
        db: context.database.db,
        tiktok: context.tiktok,
        tokens: context.tokens,
        storage: context.storage,
        concurrency: context.config.worker.concurrency,
      };
      await startPublishingWorkers(deps, pino({ level: 'warn' }));
    }
    const floor = rateLimitFloor(fixture.postsPerAccount);
    await waitFor(
      async () => {
        const counts = await postCounts(context);
        return counts.done + counts.failed >= counts.total;
      },
      floor.max + 180_000,
      'all posts to finish',
    );
    const counts = await postCounts(context);
    return {
      database: kind,
      posts: options.posts,
      published: counts.done,
      failed: counts.failed,
      lateness: percentiles(measure(kit, fixture)),
      noopLateness: noop,
      rateLimitFloor: floor,
    };
  } finally {
    for (const child of children) child.kill('SIGTERM');
    await context.shutdown();
    await kit.sandbox.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

export async function main(argv: string[] = process.argv.slice(2)): Promise<LatenessResult[]> {
  const { values } = parseArgs({
    args: argv,
    allowPositionals: true,
    strict: false,
    options: {
      posts: { type: 'string' },
      accounts: { type: 'string' },
      latency: { type: 'string', default: '50' },
      only: { type: 'string' },
      quick: { type: 'boolean', default: false },
    },
  });
  const quick = values.quick === true;
  const posts = Number(values.posts ?? (quick ? 100 : 2000));
  const accounts = Number(values.accounts ?? (quick ? 20 : 200));
  const latencyMs = Number(values.latency);
  const kinds = (['pglite', 'postgres'] as const).filter(
    (kind) => values.only === undefined || values.only === kind,
  );
  console.log(
    `Publish lateness: ${posts} posts due at once over ${accounts} accounts, sandbox latency ${latencyMs} ms`,
  );
  const results: LatenessResult[] = [];
  for (const kind of kinds) {
    const result = await runOne(kind, { posts, accounts, latencyMs, workers: 2 });
    results.push(result);
    const label = kind === 'pglite' ? 'PGlite, embedded worker' : 'PostgreSQL, 2 worker processes';
    console.log(`${label}: ${result.published} published, ${result.failed} failed`);
    console.log(formatRow('due → video init', result.lateness));
    console.log(formatRow('baseline: no-op job', result.noopLateness));
    console.log(formatRow('baseline: 6 inits/min floor', result.rateLimitFloor));
    const overFloor = result.lateness.p99 - result.rateLimitFloor.p99;
    console.log(
      `  p99 ratio to no-op job: ${(result.lateness.p99 / Math.max(1, result.noopLateness.p99)).toFixed(2)}; ` +
        `p99 above the rate-limit floor: ${seconds(overFloor)} (ratio ${(result.lateness.p99 / Math.max(1, result.rateLimitFloor.p99)).toFixed(2)})`,
    );
  }
  return results;
}

const entry = process.argv[1];
if (entry !== undefined && import.meta.url === pathToFileURL(entry).href) {
  await main();
  process.exit(0);
}
