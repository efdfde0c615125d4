import { Chaos, type ChaosFault, type ChaosSettings, type InjectedFaultRecord } from './chaos.ts';
import { tokenFingerprint } from './ids.ts';
import type { OAuthStore } from './oauth-store.ts';
import type { SandboxEndpoint } from './options.ts';
import type { PostStore } from './post-store.ts';
import type { RateLimiter } from './rate-limiter.ts';
import type { SandboxVideo, SeedVideoInput, VideoCatalog } from './video-catalog.ts';

/**
 * What an injected failure sends instead of the real answer:
 * - `http_error`: that status (5xx or 429) with the endpoint's usual error body;
 * - `error_body`: TikTok's error shape carrying `code`, by default with HTTP 200 (as TikTok does
 *   for token errors and "cannot post now").
 */
export type InjectedFailure =
  | { type: 'http_error'; status: number }
  | { type: 'error_body'; code: string; status?: number; message?: string };

export type CannotPostReason =
  'spam_risk_too_many_posts' | 'spam_risk_user_banned_from_posting' | 'reached_active_user_cap';

export interface UserFlags {
  /** Private accounts get FOLLOWER_OF_CREATOR instead of PUBLIC_TO_EVERYONE. */
  privateAccount: boolean;
  /** When set, creator_info and video init answer this "cannot post now" error. */
  cannotPost: CannotPostReason | null;
  /** Echoed by creator_info, so a posting form can grey out the matching checkboxes. */
  commentDisabled: boolean;
  duetDisabled: boolean;
  stitchDisabled: boolean;
  /**
   * creator_info's max_video_post_duration_sec; null leaves the field out. TikTok sometimes gives
   * no usable limit (0 or nothing), which clients must not read as "0 seconds at most".
   */
  maxVideoPostDurationSec: number | null;
  /**
   * Direct posts this creator may make per rolling 24 h before creator_info and video init answer
   * spam_risk_too_many_posts; null: the state's `maxDirectPostsPerDay` (default 15).
   */
  maxDirectPostsPerDay: number | null;
}

const DEFAULT_FLAGS: UserFlags = {
  privateAccount: false,
  cannotPost: null,
  commentDisabled: false,
  duetDisabled: false,
  stitchDisabled: false,
  maxVideoPostDurationSec: 600,
  maxDirectPostsPerDay: null,
};

/** Identifies a sandbox user by TikTok username (any app) or by open_id. */
export type UserTarget = { username: string } | { openId: string };

export class SandboxControlError extends Error {
  override name = 'SandboxControlError';
}

interface PendingFailure {
  failure: InjectedFailure;
  remaining: number;
}

/** Runtime fault injection; also reachable as `POST {prefix}/_control/faults` when enabled. */
export class SandboxControl {
  private latency = 0;
  private readonly pending = new Map<SandboxEndpoint, PendingFailure[]>();
  private readonly flags = new Map<string, UserFlags>();
  private chaos: Chaos | null = null;
  private readonly injected: InjectedFaultRecord[] = [];

  constructor(
    private readonly oauth: OAuthStore,
    private readonly posts: PostStore,
    private readonly rateLimiter: RateLimiter,
    private readonly videos: VideoCatalog,
  ) {}

  /**
   * Adds public videos the user "posted outside Cadence" (each appears in the video list once the
   * sandbox clock reaches its creation time). Kept by `reset()`: they are data, not faults.
   */
  seedVideos(target: UserTarget, videos: readonly SeedVideoInput[]): SandboxVideo[] {
    return this.videos.seed(this.usernameOf(target), videos);
  }

  get latencyMs(): number {
    return this.latency;
  }

  /** Delay every sandbox response by this many milliseconds (0 to stop). */
  setLatency(ms: number): void {
    this.latency = Math.max(0, ms);
  }

  /** The next `count` requests to `endpoint` get `failure` instead of being handled. */
  failNext(endpoint: SandboxEndpoint, failure: InjectedFailure, count = 1): void {
    const queue = this.pending.get(endpoint) ?? [];
    queue.push({ failure, remaining: count });
    this.pending.set(endpoint, queue);
  }

  /** Consumes one pending failure for the endpoint, if any. */
  takeFailure(endpoint: SandboxEndpoint): InjectedFailure | null {
    const queue = this.pending.get(endpoint);
    const head = queue?.[0];
    if (queue === undefined || head === undefined) return null;
    head.remaining -= 1;
    if (head.remaining <= 0) queue.shift();
    return head.failure;
  }

  /** Random faults on every later request until `stopChaos()` or `reset()`; see ChaosSettings. */
  startChaos(settings: ChaosSettings): void {
    this.chaos = new Chaos(settings);
  }

  stopChaos(): void {
    this.chaos = null;
  }

  /** Draws a chaos fault for one request (null when none) and records the ones it injects. */
  drawChaos(endpoint: SandboxEndpoint, at: number, token: string | null): ChaosFault | null {
    const fault = this.chaos?.draw(endpoint) ?? null;
    if (fault === null) return null;
    const status =
      fault.kind === 'server_error' ? fault.status : fault.kind === 'rate_limit' ? 429 : null;
    // Fingerprinted only when a fault is drawn: every API call passes here.
    const fingerprint = token === null ? null : tokenFingerprint(token);
    this.injected.push({ endpoint, kind: fault.kind, status, at, tokenFingerprint: fingerprint });
    return fault;
  }

  /** Every fault chaos injected since the last reset, oldest first. */
  injectedFaults(): readonly InjectedFaultRecord[] {
    return this.injected;
  }

  expireAccessToken(accessToken: string): void {
    if (!this.oauth.expireAccessToken(accessToken)) {
      throw new SandboxControlError('No such access token.');
    }
  }

  /** The post reports FAILED with this reason from now on. */
  failPost(publishId: string, failReason: string): void {
    const post = this.posts.find(publishId);
    if (post === undefined) throw new SandboxControlError(`No post ${publishId}.`);
    post.forcedFailReason = failReason;
  }

  /** The post's next `count` status fetches answer `status`, e.g. a value TikTok may add later. */
  answerStatus(publishId: string, status: string, count = 1): void {
    const post = this.posts.find(publishId);
    if (post === undefined) throw new SandboxControlError(`No post ${publishId}.`);
    post.statusOverride = { status, remaining: count };
  }

  /** Changes only the flags given (undefined leaves a flag as it is). */
  setUserFlags(target: UserTarget, flags: Partial<UserFlags>): void {
    const username = this.usernameOf(target);
    const current = this.flagsOf(username);
    this.flags.set(username, {
      privateAccount: flags.privateAccount ?? current.privateAccount,
      cannotPost: flags.cannotPost === undefined ? current.cannotPost : flags.cannotPost,
      commentDisabled: flags.commentDisabled ?? current.commentDisabled,
      duetDisabled: flags.duetDisabled ?? current.duetDisabled,
      stitchDisabled: flags.stitchDisabled ?? current.stitchDisabled,
      maxVideoPostDurationSec:
        flags.maxVideoPostDurationSec === undefined
          ? current.maxVideoPostDurationSec
          : flags.maxVideoPostDurationSec,
      maxDirectPostsPerDay:
        flags.maxDirectPostsPerDay === undefined
          ? current.maxDirectPostsPerDay
          : flags.maxDirectPostsPerDay,
    });
  }

  flagsOf(username: string): UserFlags {
    return this.flags.get(username) ?? DEFAULT_FLAGS;
  }

  /** Clears latency, pending failures, chaos and its record, user flags and rate-limit windows. */
  reset(): void {
    this.latency = 0;
    this.pending.clear();
    this.chaos = null;
    this.injected.length = 0;
    this.flags.clear();
    this.rateLimiter.reset();
  }

  private usernameOf(target: UserTarget): string {
    if ('username' in target) return target.username;
    const user = this.oauth.findUser(target.openId);
    if (user === undefined) throw new SandboxControlError(`No user ${target.openId}.`);
    return user.username;
  }
}
