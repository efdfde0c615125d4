import type { Logger } from 'pino';
import type { Lease } from '../../db/lease.ts';
import type { TikTokClient } from '../../tiktok/tiktok-client.ts';
import type { UserInfoField } from '../../tiktok/tiktok-user-data.ts';
import { TikTokApiError } from '../../tiktok/tiktok-error.ts';
import { AccountNeedsReconnectError } from '../accounts/token-service.ts';
import type { AccountStats } from './account-snapshot-queries.ts';
import {
  RateLimitedError,
  type DisplayApiCall,
  type DisplayApiCaller,
} from './display-api-caller.ts';
import type { AnalyticsRepository } from './repository.ts';
import { AnalyticsLeaseLostError, type AnalyticsAccountRow } from './sync-run-queries.ts';

const HOUR = 3_600_000;

const STATS_FIELDS: readonly UserInfoField[] = [
  'follower_count',
  'following_count',
  'likes_count',
  'video_count',
];

export type SyncOutcome =
  | { status: 'synced'; calls: Record<DisplayApiCall, number>; rateLimited: number; videos: number }
  | { status: 'skipped' | 'busy' | 'lease_lost' }
  | {
      status: 'rate_limited' | 'failed' | 'reconnect_needed';
      calls: Record<DisplayApiCall, number>;
      rateLimited: number;
      error: string;
    };

/** What every step of a run works with, whichever account it syncs. */
export interface SyncContext {
  repository: AnalyticsRepository;
  tiktok: Pick<TikTokClient, 'listVideos' | 'queryVideos' | 'getUserInfo'>;
  logger?: Pick<Logger, 'warn' | 'info'> | undefined;
  now: () => number;
}

/** One run of one account's sync: the account it holds, under which lease, and what it did. */
export interface SyncRun {
  /** The connected account (its token is the one the run calls TikTok with). */
  accountId: string;
  claimed: AnalyticsAccountRow;
  target: { id: string; userId: string };
  lease: Lease;
  runStart: Date;
  signal: AbortSignal | undefined;
  caller: DisplayApiCaller;
  /** Videos written so far. */
  videos: number;
}

/** TikTok's account stats, at most hourly (a snapshot within the hour already has them). */
export async function readAccountStats(
  context: SyncContext,
  run: SyncRun,
  scopes: readonly string[],
): Promise<AccountStats | null> {
  const lastSnapshot = await context.repository.lastAccountSnapshotAt(run.claimed.id);
  if (
    !scopes.includes('user.info.stats') ||
    (lastSnapshot !== null && run.runStart.getTime() - lastSnapshot.getTime() < HOUR)
  )
    return null;
  const user = await run.caller.call('user_info', (token) =>
    context.tiktok.getUserInfo(token, STATS_FIELDS, { signal: run.signal }),
  );
  return {
    followerCount: user.followerCount ?? null,
    followingCount: user.followingCount ?? null,
    likesCount: user.likesCount ?? null,
    videoCount: user.videoCount ?? null,
  };
}

/** Links posts, records the account's totals and sets when to sync next; the lease is released. */
export async function finishSyncedRun(
  context: SyncContext,
  run: SyncRun,
  stats: AccountStats | null,
): Promise<SyncOutcome> {
  const { repository, now } = context;
  const { claimed, lease } = run;
  await repository.linkPosts(claimed.id, claimed.user_id);
  const finishedAt = new Date(now());
  await repository.recordAccountSnapshot(claimed.id, lease, finishedAt, stats);
  const due = await repository.earliestSnapshotDue(claimed.id);
  // At least hourly (the account's totals), sooner when a young video's next hour comes.
  const next = Math.max(
    finishedAt.getTime() + 60_000,
    Math.min(due?.getTime() ?? Infinity, finishedAt.getTime() + HOUR),
  );
  await repository.finishRun(claimed.id, lease.owner, {
    nextSyncAt: new Date(next),
    syncedAt: finishedAt,
    error: null,
  });
  return {
    status: 'synced',
    calls: run.caller.calls,
    rateLimited: run.caller.rateLimited,
    videos: run.videos,
  };
}

/**
 * Ends a run that threw: says when to try again, by what went wrong. Progress written so far
 * stays, so the next run resumes from it. A lost lease writes nothing (another run holds the
 * account); aborts and bugs are rethrown once the account is free.
 */
export async function failRun(
  context: SyncContext,
  run: SyncRun,
  error: unknown,
): Promise<SyncOutcome> {
  if (error instanceof AnalyticsLeaseLostError) return { status: 'lease_lost' };
  const { repository, logger, now } = context;
  const { claimed, lease, accountId } = run;
  const at = now();
  const failed = (status: 'rate_limited' | 'failed' | 'reconnect_needed', retryInMs: number) =>
    repository
      .finishRun(claimed.id, lease.owner, {
        nextSyncAt: new Date(at + retryInMs),
        syncedAt: null,
        error: error instanceof Error ? `${error.name}: ${error.message}` : String(error),
      })
      .then((): SyncOutcome => ({
        status,
        calls: run.caller.calls,
        rateLimited: run.caller.rateLimited,
        error: error instanceof Error ? error.message : String(error),
      }));
  if (error instanceof RateLimitedError) {
    logger?.warn({ accountId }, 'analytics sync rate-limited: resumes in a minute');
    return failed('rate_limited', 60_000);
  }
  if (error instanceof AccountNeedsReconnectError) return failed('reconnect_needed', 6 * HOUR);
  if (error instanceof TikTokApiError) {
    logger?.warn({ err: error, accountId }, 'analytics sync failed');
    const attempts = claimed.failures + 1;
    return failed('failed', Math.min(6 * HOUR, 60_000 * 2 ** Math.min(attempts, 8)));
  }
  // Aborted or a bug: free the account for the next run (from its stored progress), then fail.
  await repository.finishRun(claimed.id, lease.owner, {
    nextSyncAt: new Date(at + 60_000),
    syncedAt: null,
    error: error instanceof Error ? `${error.name}: ${error.message}` : String(error),
  });
  throw error;
}
