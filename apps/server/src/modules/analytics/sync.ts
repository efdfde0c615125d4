import { setTimeout as delay } from 'node:timers/promises';
import type { Logger } from 'pino';
import { newLease } from '../../db/lease.ts';
import type { TikTokClient } from '../../tiktok/tiktok-client.ts';
import type { AccountRepository } from '../accounts/repository.ts';
import type { TokenService } from '../accounts/token-service.ts';
import {
  createDisplayApiCaller,
  DISPLAY_API_PER_MINUTE,
  type DisplayApiCallerOptions,
} from './display-api-caller.ts';
import type { AnalyticsRepository } from './repository.ts';
import {
  failRun,
  finishSyncedRun,
  readAccountStats,
  type SyncContext,
  type SyncOutcome,
  type SyncRun,
} from './sync-run.ts';
import { listNewVideos, refreshDueVideos } from './video-passes.ts';

export interface AnalyticsSyncDeps {
  repository: AnalyticsRepository;
  accounts: Pick<AccountRepository, 'findById'>;
  tokens: Pick<TokenService, 'getAccessToken' | 'refresh'>;
  tiktok: Pick<TikTokClient, 'listVideos' | 'queryVideos' | 'getUserInfo'>;
  logger?: Pick<Logger, 'warn' | 'info'>;
  /** The clock snapshots and ages are read on (TikTok's; default Date.now). */
  now?: () => number;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** A run's hold on the account; each write renews it (default 5 min). */
  leaseMs?: number;
  /** Calls per endpoint per minute this run allows itself (default TikTok's 600). */
  perMinute?: number;
  /** First pause after a 429 or a 5xx, doubled each time (default 1 s)… */
  backoffBaseMs?: number;
  /** …up to this (default 60 s), at most `maxRetries` times in a row (default 6). */
  backoffMaxMs?: number;
  maxRetries?: number;
}

/**
 * Syncs one connected account's public videos, their counts over time and the account's totals
 * from TikTok's Display API, incrementally and within its rate limits. Progress (the listing
 * cursor, every page's videos) is written as it goes under the run's lease, so a run that dies
 * is resumed by the next one from where it stopped.
 */
export function createAnalyticsSync(deps: AnalyticsSyncDeps) {
  const { repository } = deps;
  const now = deps.now ?? Date.now;
  const leaseMs = deps.leaseMs ?? 5 * 60_000;
  const context: SyncContext = { repository, tiktok: deps.tiktok, logger: deps.logger, now };
  const callerOptions: DisplayApiCallerOptions = {
    tokens: deps.tokens,
    now,
    sleep: deps.sleep ?? ((ms, signal) => delay(ms, undefined, { signal })),
    perMinute: deps.perMinute ?? DISPLAY_API_PER_MINUTE,
    backoffBaseMs: deps.backoffBaseMs ?? 1000,
    backoffMaxMs: deps.backoffMaxMs ?? 60_000,
    maxRetries: deps.maxRetries ?? 6,
  };

  async function syncAccount(
    accountId: string,
    options: { signal?: AbortSignal } = {},
  ): Promise<SyncOutcome> {
    const account = await deps.accounts.findById(accountId);
    if (
      !account ||
      account.status !== 'connected' ||
      account.open_id === null ||
      !account.scopes.includes('video.list')
    )
      return { status: 'skipped' };
    const row = await repository.ensureAccount({ ...account, open_id: account.open_id });
    const lease = newLease(leaseMs);
    const claimed = await repository.claim(row.id, lease);
    if (!claimed) return { status: 'busy' };
    const run: SyncRun = {
      accountId,
      claimed,
      target: { id: claimed.id, userId: claimed.user_id },
      lease,
      runStart: new Date(now()),
      signal: options.signal,
      caller: createDisplayApiCaller(callerOptions, accountId, options.signal),
      videos: 0,
    };
    try {
      const stats = await readAccountStats(context, run, account.scopes);
      await listNewVideos(context, run);
      await refreshDueVideos(context, run);
      return await finishSyncedRun(context, run, stats);
    } catch (error) {
      return failRun(context, run, error);
    }
  }

  return {
    syncAccount,

    /** Accounts whose sync is due now (the periodic job queues one run each). */
    dueAccountIds(limit = 500): Promise<string[]> {
      return repository.dueAccountIds(new Date(now()), limit);
    },
  };
}

export type AnalyticsSync = ReturnType<typeof createAnalyticsSync>;
