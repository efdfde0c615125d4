/**
 * Analytics sync cost (issue 14): N sandbox accounts with V public videos each (default 200 ×
 * 500), synced through the real queue (`analytics.sync-account` jobs, the worker's concurrency)
 * against the standalone sandbox over HTTP, which enforces TikTok's 600 calls per minute per
 * token and endpoint. Prints the API calls made against the minimum TikTok allows
 * (⌈V / 20⌉ list pages + 1 user info per account), the 429s met, the time to a full sync, then
 * the calls of an incremental re-sync (nothing new). Then the analytics API's answer times for
 * an account holding a year of hourly snapshots (p50/p99 over 200 requests; target p99 < 50 ms).
 * `npx tsx bench/analytics/sync-cost.ts [--accounts 200] [--videos 500] [--db pglite|postgres] [--quick]`
 */
import { randomBytes } from 'node:crypto';
import diagnosticsChannel from 'node:diagnostics_channel';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import pino from 'pino';
import type { DiagnosticsChannel } from 'undici';
import { buildApp } from '../../apps/server/src/app.ts';
import { bootstrap } from '../../apps/server/src/bootstrap.ts';
import { loadConfig } from '../../apps/server/src/config.ts';
import { tokenUpdateFrom } from '../../apps/server/src/modules/accounts/token-service.ts';
import {
  enqueueAnalyticsSync,
  startAnalyticsWorkers,
} from '../../apps/server/src/modules/analytics/jobs.ts';
import {
  seedYearOfHistory,
  syncProgress,
} from '../../apps/server/src/modules/analytics/test-kit.ts';
import { signUpViaApi } from '../../apps/server/src/test-support/app.ts';
import { openTestDatabase } from '../../apps/server/src/test-support/database.ts';
import {
  CLIENT_KEY,
  CLIENT_SECRET,
  connectAccount,
  startSandboxKit,
} from '../../apps/server/src/tiktok/sandbox-test-kit.ts';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

export interface SyncCostResult {
  db: 'pglite' | 'postgres';
  accounts: number;
  videos: number;
  calls: number;
  minimumCalls: number;
  rateLimited: number;
  fullSyncSeconds: number;
  resyncCalls: number;
  resyncSeconds: number;
  api: Record<string, { p50: number; p99: number }>;
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;
}

async function waitUntil(check: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`not done within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

export async function runSyncCost(options: {
  db: 'pglite' | 'postgres';
  accounts: number;
  videos: number;
}): Promise<SyncCostResult> {
  const kit = await startSandboxKit({ logger: false });
  const dataDir = mkdtempSync(join(tmpdir(), 'cadence-bench-analytics-'));
  const database = await openTestDatabase(options.db);
  const calls = new Map<string, number>();
  let rateLimited = 0;
  // Every TikTok call the server makes, counted by endpoint, 429s too: undici (the TikTok
  // client's HTTP) publishes each answer's headers on this diagnostics channel.
  const sandboxOrigin = new URL(kit.sandbox.baseUrl).origin;
  const countCall = (message: unknown) => {
    const { request, response } = message as DiagnosticsChannel.RequestHeadersMessage;
    if (request.origin !== sandboxOrigin) return;
    const pathname = request.path.split('?')[0] ?? request.path;
    if (!pathname.includes('/v2/') || pathname.includes('/oauth/')) return;
    calls.set(pathname, (calls.get(pathname) ?? 0) + 1);
    if (response.statusCode === 429) rateLimited += 1;
  };
  diagnosticsChannel.subscribe('undici:request:headers', countCall);
  const env: NodeJS.ProcessEnv = {
    NODE_ENV: 'test',
    LOG_LEVEL: 'warn',
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
  const context = await bootstrap(loadConfig(env), {
    runWorkers: false,
    logger,
    database,
  });
  const app = await buildApp(context, logger);
  try {
    const db = context.database.db;
    const cookie = await signUpViaApi(
      app,
      { email: 'bench-analytics@example.com' },
      'http://127.0.0.1:3999',
    );
    const user = await db
      .selectFrom('user')
      .select('id')
      .where('email', '=', 'bench-analytics@example.com')
      .executeTakeFirstOrThrow();

    // The accounts, connected through the sandbox's OAuth, each with its history elsewhere.
    const now = Date.now();
    const tag = randomBytes(3).toString('hex');
    const accountIds: string[] = [];
    for (let index = 0; index < options.accounts; index++) {
      const username = `sync_${tag}_${index}`;
      const { tokens } = await connectAccount(kit, {
        username,
        scopes: ['user.info.basic', 'user.info.profile', 'user.info.stats', 'video.list'],
      });
      const account = await context.accountRepository.insert(user.id, username);
      await context.accountRepository.markConnected(
        account.id,
        { openId: tokens.openId, username, displayName: username, avatarUrl: null },
        tokenUpdateFrom(context.cipher, tokens),
      );
      kit.sandbox.state.control.seedVideos(
        { username },
        Array.from({ length: options.videos }, (_, video) => ({
          // One a day or so, the newest 3 days old (past their hourly reads).
          createdAtMs: now - 3 * DAY - video * 22 * HOUR,
        })),
      );
      accountIds.push(account.id);
    }

    // A full sync through the queue, as the workers run it.
    await startAnalyticsWorkers(context.boss, context.analyticsSync, { logger });
    calls.clear();
    const started = performance.now();
    for (const id of accountIds) await enqueueAnalyticsSync(context.boss, id);
    const synced = async () => (await syncProgress(db, user.id)).synced >= options.accounts;
    await waitUntil(synced, 30 * 60_000);
    const fullSyncSeconds = (performance.now() - started) / 1000;
    const total = (map: Map<string, number>) => [...map.values()].reduce((a, b) => a + b, 0);
    const fullCalls = total(calls);
    const { videos: stored } = await syncProgress(db, user.id);
    if (stored !== options.accounts * options.videos) {
      throw new Error(`stored ${stored} videos, expected ${options.accounts * options.videos}`);
    }

    // An incremental re-sync right after: nothing new, nothing due.
    calls.clear();
    const resyncStarted = performance.now();
    for (const id of accountIds) await context.analyticsSync.syncAccount(id);
    const resyncSeconds = (performance.now() - resyncStarted) / 1000;
    const resyncCalls = total(calls);

    // The API over a year of hourly snapshots: one more account, written straight to the tables.
    const history = await seedYearOfHistory(db, user.id, `year-${tag}`);
    const endpoints: Record<string, string> = {
      accounts: '/api/analytics/accounts',
      overview_28d: `/api/analytics/overview?accountId=${history.id}&period=28d&timeZone=Europe/Paris`,
      overview_90d: `/api/analytics/overview?accountId=${history.id}&period=90d&timeZone=Europe/Paris`,
      overview_year: `/api/analytics/overview?accountId=${history.id}&period=custom&from=${new Date(now - 364 * DAY).toISOString().slice(0, 10)}&to=${new Date(now).toISOString().slice(0, 10)}&timeZone=Europe/Paris`,
      best_times: `/api/analytics/best-times?accountId=${history.id}&timeZone=Europe/Paris`,
    };
    // The sync queue stays registered, as in a server with its embedded worker.
    const api: Record<string, { p50: number; p99: number }> = {};
    for (const [name, url] of Object.entries(endpoints)) {
      const times: number[] = [];
      for (let run = 0; run < 220; run++) {
        const start = performance.now();
        const response = await app.inject({ url, headers: { cookie } });
        const ms = performance.now() - start;
        if (response.statusCode !== 200)
          throw new Error(`${url}: ${response.statusCode} ${response.body}`);
        if (run >= 20) times.push(ms); // the first 20 warm caches and the JIT
      }
      api[name] = { p50: percentile(times, 50), p99: percentile(times, 99) };
    }
    console.log(`  (year of history: ${history.snapshotRows} snapshot rows, 365 videos)`);
    return {
      db: options.db,
      accounts: options.accounts,
      videos: options.videos,
      calls: fullCalls,
      minimumCalls: options.accounts * (Math.ceil(options.videos / 20) + 1),
      rateLimited,
      fullSyncSeconds,
      resyncCalls,
      resyncSeconds,
      api,
    };
  } finally {
    diagnosticsChannel.unsubscribe('undici:request:headers', countCall);
    await app.close();
    await context.shutdown();
    await kit.sandbox.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

export async function main(argv: string[] = process.argv.slice(2)): Promise<SyncCostResult[]> {
  const { values } = parseArgs({
    args: argv,
    options: {
      accounts: { type: 'string' },
      videos: { type: 'string', default: '500' },
      db: { type: 'string' },
      quick: { type: 'boolean', default: false },
    },
  });
  const accounts = Number(values.accounts ?? (values.quick ? 20 : 200));
  const videos = Number(values.videos);
  const kinds =
    values.db === undefined
      ? (['pglite', 'postgres'] as const)
      : [values.db as 'pglite' | 'postgres'];
  const results: SyncCostResult[] = [];
  for (const db of kinds) {
    console.log(
      `analytics sync cost on ${db}: ${accounts} accounts × ${videos} videos (sandbox over HTTP, 600/min per token)`,
    );
    const result = await runSyncCost({ db, accounts, videos });
    results.push(result);
    console.log(
      `  full sync: ${result.calls} API calls for a minimum of ${result.minimumCalls} (×${(result.calls / result.minimumCalls).toFixed(2)}), ${result.rateLimited} answered 429, ${result.fullSyncSeconds.toFixed(1)} s (${((accounts * videos) / result.fullSyncSeconds).toFixed(0)} videos/s)`,
    );
    console.log(
      `  re-sync with nothing new: ${result.resyncCalls} calls (${(result.resyncCalls / accounts).toFixed(2)} per account), ${result.resyncSeconds.toFixed(1)} s`,
    );
    for (const [name, { p50, p99 }] of Object.entries(result.api)) {
      console.log(
        `  GET ${name}: p50 ${p50.toFixed(1)} ms, p99 ${p99.toFixed(1)} ms${p99 < 50 ? '' : '  (over the 50 ms target)'}`,
      );
    }
  }
  return results;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  await main();
  process.exit(0);
}
