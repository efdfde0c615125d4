import { setTimeout as delay } from 'node:timers/promises';
import type { Logger } from 'pino';
import { newLease } from '../../db/lease.ts';
import type {
  TikTokClient,
  TikTokVideo,
  UserInfoField,
  VideoField,
} from '../../tiktok/tiktok-client.ts';
import { TikTokApiError } from '../../tiktok/tiktok-error.ts';
import type { AccountRepository } from '../accounts/repository.ts';
import { AccountNeedsReconnectError, type TokenService } from '../accounts/token-service.ts';
import {
  AnalyticsLeaseLostError,
  type AccountStats,
  type AnalyticsRepository,
  type ObservedVideo,
  type VideoWrite,
} from './repository.ts';

const HOUR = 3_600_000;
/** TikTok's page and batch size for video/list and video/query (docs/tiktok-display-api.md). */
export const DISPLAY_API_BATCH = 20;
/** TikTok's per-token, per-endpoint limit for user info, video list and video query. */
export const DISPLAY_API_PER_MINUTE = 600;

const VIDEO_FIELDS: readonly VideoField[] = [
  'id',
  'create_time',
  'title',
  'cover_image_url',
  'share_url',
  'duration',
  'view_count',
  'like_count',
  'comment_count',
  'share_count',
];
const STATS_FIELDS: readonly UserInfoField[] = [
  'follower_count',
  'following_count',
  'likes_count',
  'video_count',
];

export type DisplayApiCall = 'video_list' | 'video_query' | 'user_info';

export type SyncOutcome =
  | { status: 'synced'; calls: Record<DisplayApiCall, number>; rateLimited: number; videos: number }
  | { status: 'skipped' | 'busy' | 'lease_lost' }
  | {
      status: 'rate_limited' | 'failed' | 'reconnect_needed';
      calls: Record<DisplayApiCall, number>;
      rateLimited: number;
      error: string;
    };

/** When a video's counts should be read next: hourly for its first 48 h, daily after. */
export function nextSnapshotAt(postedAt: Date, now: Date): Date {
  const ageMs = now.getTime() - postedAt.getTime();
  if (ageMs < 48 * HOUR) {
    const nextHour = Math.floor(Math.max(0, ageMs) / HOUR) + 1;
    return new Date(postedAt.getTime() + nextHour * HOUR);
  }
  return new Date(now.getTime() + 24 * HOUR);
}

/**
 * Views at exactly 24 h of age, from the last observation before that age and one after it
 * (linear between the two); null until a video has been seen on both sides of its 24th hour.
 */
export function viewsAt24h(
  postedAt: Date,
  before: { at: Date; views: number } | null,
  after: { at: Date; views: number },
): number | null {
  const day = postedAt.getTime() + 24 * HOUR;
  if (before === null || before.at.getTime() >= day || after.at.getTime() < day) return null;
  const span = after.at.getTime() - before.at.getTime();
  if (span <= 0) return before.views;
  const share = (day - before.at.getTime()) / span;
  return Math.round(before.views + (after.views - before.views) * share);
}

class RateLimitedError extends Error {
  override name = 'RateLimitedError';
}

function observed(video: TikTokVideo): ObservedVideo | null {
  if (video.id === undefined || video.createTime === undefined) return null;
  return {
    videoId: video.id,
    postedAt: new Date(video.createTime * 1000),
    title: video.title ?? video.videoDescription ?? '',
    coverImageUrl: video.coverImageUrl ?? null,
    shareUrl: video.shareUrl ?? null,
    duration: video.duration ?? null,
    viewCount: video.viewCount ?? 0,
    likeCount: video.likeCount ?? 0,
    commentCount: video.commentCount ?? 0,
    shareCount: video.shareCount ?? 0,
  };
}

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
  const { repository, tiktok, tokens } = deps;
  const now = deps.now ?? Date.now;
  const sleep = deps.sleep ?? ((ms, signal) => delay(ms, undefined, { signal }));
  const leaseMs = deps.leaseMs ?? 5 * 60_000;
  const perMinute = deps.perMinute ?? DISPLAY_API_PER_MINUTE;
  const backoffBaseMs = deps.backoffBaseMs ?? 1000;
  const backoffMaxMs = deps.backoffMaxMs ?? 60_000;
  const maxRetries = deps.maxRetries ?? 6;

  /** One run's TikTok caller: its token, per-endpoint pacing, backoff on 429 and 5xx, counts. */
  function caller(accountId: string, signal: AbortSignal | undefined) {
    const calls: Record<DisplayApiCall, number> = { video_list: 0, video_query: 0, user_info: 0 };
    const sent: Record<DisplayApiCall, number[]> = {
      video_list: [],
      video_query: [],
      user_info: [],
    };
    let rateLimited = 0;
    let token: string | null = null;

    async function pace(endpoint: DisplayApiCall): Promise<void> {
      for (;;) {
        const window = sent[endpoint].filter((at) => at > now() - 60_000);
        sent[endpoint] = window;
        const oldest = window[0];
        if (window.length < perMinute || oldest === undefined) return;
        await sleep(oldest + 60_000 - now() + 1, signal);
      }
    }

    async function call<TResult>(
      endpoint: DisplayApiCall,
      request: (accessToken: string) => Promise<TResult>,
    ): Promise<TResult> {
      let failures = 0;
      let refreshed = false;
      for (;;) {
        signal?.throwIfAborted();
        await pace(endpoint);
        token ??= await tokens.getAccessToken(accountId);
        sent[endpoint].push(now());
        calls[endpoint] += 1;
        try {
          return await request(token);
        } catch (error) {
          if (!(error instanceof TikTokApiError)) throw error;
          if (error.kind === 'auth' && !refreshed) {
            refreshed = true;
            token = await tokens.refresh(accountId);
            continue;
          }
          if (error.kind !== 'rate_limit' && error.kind !== 'transient') throw error;
          if (error.kind === 'rate_limit') rateLimited += 1;
          failures += 1;
          if (failures > maxRetries) {
            throw error.kind === 'rate_limit' ? new RateLimitedError(error.message) : error;
          }
          await sleep(Math.min(backoffMaxMs, backoffBaseMs * 2 ** (failures - 1)), signal);
        }
      }
    }

    return {
      call,
      get calls() {
        return { ...calls };
      },
      get rateLimited() {
        return rateLimited;
      },
    };
  }

  /** Compares what TikTok says now with what the account had, video by video. */
  async function plan(
    analyticsAccountId: string,
    videos: readonly ObservedVideo[],
    at: Date,
  ): Promise<VideoWrite[]> {
    const known = new Map(
      (
        await repository.videosByIds(
          analyticsAccountId,
          videos.map((video) => video.videoId),
        )
      ).map((row) => [row.video_id, row]),
    );
    return videos.map((video) => {
      const previous = known.get(video.videoId);
      const changed =
        previous === undefined ||
        previous.view_count !== video.viewCount ||
        previous.like_count !== video.likeCount ||
        previous.comment_count !== video.commentCount ||
        previous.share_count !== video.shareCount;
      const before =
        previous?.last_snapshot_at == null
          ? null
          : { at: previous.last_snapshot_at, views: previous.view_count };
      return {
        ...video,
        viewsAt24h:
          previous?.views_at_24h ??
          viewsAt24h(video.postedAt, before, { at, views: video.viewCount }),
        nextSnapshotAt: nextSnapshotAt(video.postedAt, at),
        snapshot: changed,
      };
    });
  }

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
    const target = { id: claimed.id, userId: claimed.user_id };
    const runStart = new Date(now());
    const tiktokCalls = caller(accountId, options.signal);
    let videos = 0;
    try {
      let stats: AccountStats | null = null;
      const lastSnapshot = await repository.lastAccountSnapshotAt(claimed.id);
      if (
        account.scopes.includes('user.info.stats') &&
        (lastSnapshot === null || runStart.getTime() - lastSnapshot.getTime() >= HOUR)
      ) {
        const user = await tiktokCalls.call('user_info', (token) =>
          tiktok.getUserInfo(token, STATS_FIELDS, { signal: options.signal }),
        );
        stats = {
          followerCount: user.followerCount ?? null,
          followingCount: user.followingCount ?? null,
          likesCount: user.likesCount ?? null,
          videoCount: user.videoCount ?? null,
        };
      }

      // New videos: list from the newest (or from where a dead run stopped) down to the newest
      // video the last finished pass saw. Each page carries the counts of the videos it lists.
      const knownNewest = claimed.known_newest;
      let passNewest = claimed.list_pass_newest;
      let cursor = claimed.list_cursor ?? undefined;
      for (;;) {
        const page = await tiktokCalls.call('video_list', (token) =>
          tiktok.listVideos(
            token,
            {
              fields: VIDEO_FIELDS,
              maxCount: DISPLAY_API_BATCH,
              ...(cursor !== undefined && { cursor }),
            },
            { signal: options.signal },
          ),
        );
        const at = new Date(now());
        const seen = page.videos.flatMap((video) => observed(video) ?? []);
        const newestSeconds = (video: ObservedVideo) => Math.floor(video.postedAt.getTime() / 1000);
        const first = seen[0];
        if (passNewest === null && first) passNewest = newestSeconds(first);
        const reachedKnown =
          knownNewest !== null && seen.some((video) => newestSeconds(video) <= knownNewest);
        const done = reachedKnown || !page.hasMore || seen.length === 0;
        const writes = await plan(claimed.id, seen, at);
        videos += writes.length;
        await repository.writeVideos(
          target,
          lease,
          at,
          writes,
          done
            ? {
                cursor: null,
                passNewest: null,
                knownNewest: Math.max(knownNewest ?? 0, passNewest ?? 0),
              }
            : { cursor: page.cursor, passNewest },
        );
        if (done) break;
        cursor = page.cursor;
      }

      // Known videos whose snapshot is due and that the listing did not just refresh.
      for (;;) {
        const due = await repository.dueVideoIds(
          claimed.id,
          new Date(now()),
          runStart,
          DISPLAY_API_BATCH * 25,
        );
        if (due.length === 0) break;
        for (let index = 0; index < due.length; index += DISPLAY_API_BATCH) {
          const batch = due.slice(index, index + DISPLAY_API_BATCH);
          const found = await tiktokCalls.call('video_query', (token) =>
            tiktok.queryVideos(
              token,
              { fields: VIDEO_FIELDS, videoIds: batch },
              { signal: options.signal },
            ),
          );
          const at = new Date(now());
          const seen = found.flatMap((video) => observed(video) ?? []);
          const writes = await plan(claimed.id, seen, at);
          videos += writes.length;
          await repository.writeVideos(target, lease, at, writes);
          const returned = new Set(seen.map((video) => video.videoId));
          // Deleted or made private: TikTok leaves it out. Its history stays; ask again tomorrow.
          await repository.deferVideos(
            claimed.id,
            batch.filter((id) => !returned.has(id)),
            new Date(at.getTime() + 24 * HOUR),
          );
        }
      }

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
        calls: tiktokCalls.calls,
        rateLimited: tiktokCalls.rateLimited,
        videos,
      };
    } catch (error) {
      if (error instanceof AnalyticsLeaseLostError) return { status: 'lease_lost' };
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
            calls: tiktokCalls.calls,
            rateLimited: tiktokCalls.rateLimited,
            error: error instanceof Error ? error.message : String(error),
          }));
      if (error instanceof RateLimitedError) {
        deps.logger?.warn({ accountId }, 'analytics sync rate-limited: resumes in a minute');
        return failed('rate_limited', 60_000);
      }
      if (error instanceof AccountNeedsReconnectError) return failed('reconnect_needed', 6 * HOUR);
      if (error instanceof TikTokApiError) {
        deps.logger?.warn({ err: error, accountId }, 'analytics sync failed');
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
