/**
 * Planning lists benchmark: 100,000 posts of one user (7.7 years of history, 200 days ahead,
 * about 1,000 a month), then the queue's first page, a history page deep in the list (by cursor),
 * and one month of calendar (all of its ~1,000 posts and the per-day counts), each requested by
 * 50 clients at once over HTTP (keep-alive) against the real app in this process. Prints p50/p99
 * of the client's latency and of the server's own time (Fastify's reply.elapsedTime), the reply
 * size, and the ratio to a baseline run the same way: the bare indexed SQL query behind each
 * endpoint (ids and the times it orders on only) on the same database handle. PGlite, then
 * PostgreSQL.
 * `npx tsx bench/planning/lists.ts [--posts 100000] [--requests 1000] [--concurrency 50]
 * [--database pglite|postgres|both] [--quick]`
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { randomBytes } from 'node:crypto';
import pino from 'pino';
import { buildApp } from '../../apps/server/src/app.ts';
import { bootstrap } from '../../apps/server/src/bootstrap.ts';
import { loadConfig } from '../../apps/server/src/config.ts';
import type { ExecuteSql } from '../../apps/server/src/db/client.ts';
import { openTestDatabase } from '../../apps/server/src/test-support/database.ts';
import { signUpViaApi } from '../../apps/server/src/test-support/app.ts';
import { postableProbe } from '../../apps/server/src/test-support/media-fixtures.ts';

const DAY_MS = 24 * 60 * 60_000;
const HISTORY_DAYS = 2800;
const AHEAD_DAYS = 200;

export interface Percentiles {
  p50: number;
  p99: number;
}

export interface EndpointResult {
  name: string;
  client: Percentiles;
  server: Percentiles;
  baseline: Percentiles;
  bytes: number;
  posts: number;
}

export interface PlanningListsResult {
  database: 'pglite' | 'postgres';
  posts: number;
  endpoints: EndpointResult[];
}

function percentiles(values: number[]): Percentiles {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q: number) =>
    sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] ?? NaN;
  return { p50: at(0.5), p99: at(0.99) };
}

/** `total` calls of `once`, `concurrency` at a time; each call's duration in ms. */
async function load(
  total: number,
  concurrency: number,
  once: () => Promise<void>,
): Promise<number[]> {
  const durations: number[] = [];
  let started = 0;
  const worker = async () => {
    while (started < total) {
      started += 1;
      const begin = performance.now();
      await once();
      durations.push(performance.now() - begin);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return durations;
}

/** Posts per schedule, and videos, in the seeded data (as a creator's would be spread). */
const POSTS_PER_SCHEDULE = 10;
const VIDEOS = 50;

/** One user's posts, written by SQL (generate_series) in a few statements. */
async function seed(
  execute: ExecuteSql,
  userId: string,
  posts: number,
  now: number,
): Promise<void> {
  const tag = randomBytes(4).toString('hex');
  const [account] = (
    await execute(
      `insert into tiktok_accounts (user_id, username) values ($1, 'bench_creator') returning id`,
      [userId],
    )
  ).rows as { id: string }[];
  await execute(
    `insert into media (id, user_id, kind, original_name, content_type, size_bytes, storage_key,
       thumbnail_key, duration_seconds, width, height, has_audio, probe)
     select 'upload-' || $1 || '-' || v, $2, 'upload', 'bench.mp4', 'video/mp4', 4096,
       'bench/' || v || '.mp4', 'bench/' || v || '.jpg', 5, 1080, 1920, false, $3
     from generate_series(0, ${VIDEOS - 1}) as v`,
    [tag, userId, JSON.stringify(postableProbe(4096))],
  );
  const schedules = (
    await execute(
      `insert into schedules (user_id, account_id, publish_type, time_zone, privacy_level,
         allow_comment, allow_duet, allow_stitch, commercial_content)
       select $1, $2, 'scheduled', 'Europe/Paris', 'PUBLIC_TO_EVERYONE', true, false, false,
         '{"enabled":false,"yourBrand":false,"brandedContent":false}'
       from generate_series(1, $3::int)
       returning id`,
      [userId, account?.id, Math.ceil(posts / POSTS_PER_SCHEDULE)],
    )
  ).rows as { id: string }[];
  const scheduleIds = schedules.map((row) => row.id);
  const first = now - HISTORY_DAYS * DAY_MS;
  const stepMs = ((HISTORY_DAYS + AHEAD_DAYS) * DAY_MS) / posts;
  const batch = 20_000;
  for (let from = 0; from < posts; from += batch) {
    const to = Math.min(posts, from + batch) - 1;
    // Past posts: completed (90 %), failed, cancelled, each at its due time; future ones pending
    // (the database clears their outcome_at: migration 0027).
    await execute(
      `insert into posts (schedule_id, user_id, account_id, account_username, media_id, title,
                          due_at, wake_at, outcome_at, status, fail_reason)
       select ($1::uuid[])[n / ${POSTS_PER_SCHEDULE} + 1], $2, $3::uuid, 'bench_creator',
              'upload-' || $4 || '-' || (n % ${VIDEOS}), 'Bench post #' || n || ' #cadence #fyp',
              at, at, at,
              case when at > to_timestamp($5::float8 / 1000) then 'pending'
                   when n % 20 = 0 then 'failed'
                   when n % 20 = 1 then 'cancelled'
                   else 'completed' end,
              case when at <= to_timestamp($5::float8 / 1000) and n % 20 = 0
                   then 'publish_failed' end
       from generate_series($6::int, $7::int) as n,
            lateral (select to_timestamp(($8::float8 + n * $9::float8) / 1000) as at) t`,
      [scheduleIds, userId, account?.id, tag, now, from, to, first, stepMs],
    );
  }
  await execute('analyze');
}

async function runOne(
  kind: 'pglite' | 'postgres',
  options: { posts: number; requests: number; concurrency: number },
): Promise<PlanningListsResult> {
  const dataDir = mkdtempSync(join(tmpdir(), 'cadence-bench-planning-'));
  const database = await openTestDatabase(kind);
  const config = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    DATA_DIR: dataDir,
    PUBLIC_URL: 'http://127.0.0.1:3999',
    ...(database.url !== null && { DATABASE_URL: database.url }),
  });
  const logger = pino({ level: 'silent' });
  const context = await bootstrap(config, { runWorkers: false, logger, database });
  const app = await buildApp(context, logger);
  const serverTimes: number[] = [];
  app.addHook('onResponse', async (_request, reply) => {
    serverTimes.push(reply.elapsedTime);
  });
  try {
    const address = await app.listen({ port: 0, host: '127.0.0.1' });
    const cookie = await signUpViaApi(app, { email: 'bench@example.com' }, config.publicUrl);
    const user = await context.database.db
      .selectFrom('user')
      .select('id')
      .where('email', '=', 'bench@example.com')
      .executeTakeFirstOrThrow();
    await context.users.setTimeZone(user.id, 'Europe/Paris');
    const now = Date.now();
    const seedStart = performance.now();
    const execute = context.database.executeSql;
    await seed(execute, user.id, options.posts, now);
    console.log(
      `  seeded ${options.posts.toLocaleString('en')} posts in ${((performance.now() - seedStart) / 1000).toFixed(1)} s`,
    );

    // A history page half-way down: keyset pages cost the same at any depth.
    const middle = await context.database.db
      .selectFrom('posts')
      .select(['id', 'outcome_at'])
      .where('user_id', '=', user.id)
      .where('outcome_at', '<', new Date(now - (HISTORY_DAYS / 2) * DAY_MS))
      .orderBy('outcome_at', 'desc')
      .orderBy('id', 'desc')
      .limit(1)
      .executeTakeFirstOrThrow();
    const middleAt = middle.outcome_at ?? new Date(0);
    const cursor = Buffer.from(JSON.stringify([middleAt.toISOString(), middle.id])).toString(
      'base64url',
    );
    const monthStart = new Date(now - 15 * DAY_MS);
    const monthEnd = new Date(monthStart.getTime() + 31 * DAY_MS);
    const range = `from=${monthStart.toISOString()}&to=${monthEnd.toISOString()}&limit=1000`;

    const endpoints = [
      {
        name: 'queue, first page (20)',
        url: '/api/posts/queue',
        count: (body: { posts: unknown[] }) => body.posts.length,
        baseline: () =>
          execute(
            `select id, due_at from posts where user_id = $1
             and status in ('pending', 'publishing') order by due_at, id limit 21`,
            [user.id],
          ),
      },
      {
        name: 'history, page at 50% (50)',
        url: `/api/posts/history?limit=50&cursor=${cursor}`,
        count: (body: { posts: unknown[] }) => body.posts.length,
        baseline: () =>
          execute(
            `select id, outcome_at from posts where user_id = $1
             and status in ('completed', 'failed', 'cancelled') and (outcome_at, id) < ($2, $3)
             order by outcome_at desc, id desc limit 51`,
            [user.id, middleAt, middle.id],
          ),
      },
      {
        name: 'calendar, one month',
        url: `/api/posts/calendar?${range}`,
        count: (body: { posts: unknown[] }) => body.posts.length,
        baseline: () =>
          execute(
            `select id, due_at from posts where user_id = $1 and due_at >= $2 and due_at < $3
             order by due_at, id limit 1001`,
            [user.id, monthStart, monthEnd],
          ),
      },
    ];

    const results: EndpointResult[] = [];
    for (const endpoint of endpoints) {
      const url = `${address}${endpoint.url}`;
      const probe = await fetch(url, { headers: { cookie } });
      const text = await probe.text();
      if (probe.status !== 200) throw new Error(`${endpoint.url}: ${probe.status} ${text}`);
      const posts = endpoint.count(JSON.parse(text) as { posts: unknown[] });
      // Warm-up (JIT, plans, pool), then the measured run.
      await load(Math.min(100, options.requests), options.concurrency, async () => {
        await (await fetch(url, { headers: { cookie } })).arrayBuffer();
      });
      serverTimes.length = 0;
      const client = await load(options.requests, options.concurrency, async () => {
        const response = await fetch(url, { headers: { cookie } });
        await response.arrayBuffer();
        if (response.status !== 200) throw new Error(`${endpoint.url}: ${response.status}`);
      });
      const server = percentiles(serverTimes);
      await load(Math.min(100, options.requests), options.concurrency, async () => {
        await endpoint.baseline();
      });
      const baseline = await load(options.requests, options.concurrency, async () => {
        await endpoint.baseline();
      });
      results.push({
        name: endpoint.name,
        client: percentiles(client),
        server,
        baseline: percentiles(baseline),
        bytes: Buffer.byteLength(text),
        posts,
      });
    }
    return { database: kind, posts: options.posts, endpoints: results };
  } finally {
    await app.close();
    await context.shutdown();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const ms = (value: number) => `${value.toFixed(1)} ms`.padStart(9);

export async function main(argv: string[] = process.argv.slice(2)): Promise<PlanningListsResult[]> {
  const { values } = parseArgs({
    args: argv,
    allowPositionals: true,
    strict: false,
    options: {
      posts: { type: 'string' },
      requests: { type: 'string' },
      concurrency: { type: 'string', default: '50' },
      database: { type: 'string', default: 'both' },
      quick: { type: 'boolean', default: false },
    },
  });
  const quick = values.quick === true;
  const posts = Number(values.posts ?? 100_000);
  const requests = Number(values.requests ?? (quick ? 200 : 1000));
  const concurrency = Number(values.concurrency);
  const kinds = (['pglite', 'postgres'] as const).filter(
    (kind) => values.database === 'both' || values.database === kind,
  );
  console.log(
    `Planning lists: ${posts.toLocaleString('en')} posts of one user, ${requests} requests per endpoint, ${concurrency} at once`,
  );
  const all: PlanningListsResult[] = [];
  for (const kind of kinds) {
    console.log(kind === 'pglite' ? 'PGlite (embedded)' : 'PostgreSQL');
    const result = await runOne(kind, { posts, requests, concurrency });
    all.push(result);
    for (const endpoint of result.endpoints) {
      console.log(
        `  ${endpoint.name.padEnd(27)} ${String(endpoint.posts).padStart(4)} posts ${`${(endpoint.bytes / 1024).toFixed(0)} KiB`.padStart(7)}` +
          `  client p50 ${ms(endpoint.client.p50)} p99 ${ms(endpoint.client.p99)}` +
          `  server p50 ${ms(endpoint.server.p50)} p99 ${ms(endpoint.server.p99)}` +
          `  bare SQL p50 ${ms(endpoint.baseline.p50)} p99 ${ms(endpoint.baseline.p99)}` +
          `  ratio p99 ${(endpoint.client.p99 / Math.max(0.01, endpoint.baseline.p99)).toFixed(1)}`,
      );
    }
  }
  return all;
}

const entry = process.argv[1];
if (entry !== undefined && import.meta.url === pathToFileURL(entry).href) {
  await main();
  process.exit(0);
}
