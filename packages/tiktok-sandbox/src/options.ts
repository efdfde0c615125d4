import type { FastifyRequest } from 'fastify';
import { RATE_LIMIT_WINDOW_MS } from './rate-limiter.ts';

/** Every sandbox endpoint, as named in rate limits, fault injection and route config. */
export const SANDBOX_ENDPOINTS = [
  'authorize',
  'token',
  'revoke',
  'user_info',
  'creator_info',
  'video_init',
  'inbox_init',
  'upload',
  'status_fetch',
  'video_list',
  'video_query',
] as const;
export type SandboxEndpoint = (typeof SANDBOX_ENDPOINTS)[number];

/** The v2 API endpoints TikTok rate-limits per access token. */
export type RateLimitedEndpoint =
  | 'user_info'
  | 'creator_info'
  | 'video_init'
  | 'inbox_init'
  | 'status_fetch'
  | 'video_list'
  | 'video_query';

export type RateLimits = Record<RateLimitedEndpoint, number>;

/** TikTok's documented per-token, per-minute limits. */
export const DEFAULT_RATE_LIMITS: RateLimits = {
  user_info: 600,
  creator_info: 20,
  video_init: 6,
  inbox_init: 6,
  status_fetch: 30,
  video_list: 600,
  // Display API (tiktok-api-v2-rate-limit): 600 per minute per endpoint, sliding window.
  video_query: 600,
};

/** How long the sandbox's moderation holds a post id back by default (5 minutes). */
export const DEFAULT_POST_ID_DELAY_MS = 5 * 60 * 1000;

export const KNOWN_SCOPES = [
  'user.info.basic',
  'user.info.profile',
  'user.info.stats',
  'video.list',
  'video.upload',
  'video.publish',
] as const;
export type SandboxScope = (typeof KNOWN_SCOPES)[number];

export interface SandboxClient {
  clientKey: string;
  clientSecret: string;
  /** Compared byte for byte with the `redirect_uri` of each request, as TikTok does. */
  redirectUris: string[];
  /** Shown on the consent page (default 'Cadence'). */
  appName?: string;
  /**
   * An app TikTok has not audited yet (content-sharing-guidelines, 'Direct Post API'): it may
   * only post SELF_ONLY to private accounts (else
   * unaudited_client_can_only_post_to_private_accounts), and at most
   * `UNAUDITED_ACTIVE_USER_CAP` creators may post through it per 24 h (else
   * reached_active_user_cap). Default false.
   */
  unaudited?: boolean;
  /**
   * URL prefixes whose ownership the app verified (TikTok's developer portal): PULL_FROM_URL
   * takes only a `video_url` under one of them, else url_ownership_unverified. Default none.
   */
  verifiedUrlPrefixes?: string[];
}

/** Creators an unaudited app may let post within 24 h (TikTok's 'User cap'). */
export const UNAUDITED_ACTIVE_USER_CAP = 5;

/** A client that works out of the box with a local Cadence on port 3000. */
export const DEFAULT_SANDBOX_CLIENT: SandboxClient = {
  clientKey: 'sandbox_client_key',
  clientSecret: 'sandbox_client_secret',
  redirectUris: ['http://localhost:3000/api/tiktok/callback'],
  appName: 'Cadence',
};

export interface SandboxStateOptions {
  /** Registered apps (default: DEFAULT_SANDBOX_CLIENT). */
  clients?: SandboxClient[];
  /** Access token lifetime (default 86,400 s). */
  accessTokenTtlSeconds?: number;
  /** Refresh token lifetime (default 31,536,000 s); each refresh rotates it. */
  refreshTokenTtlSeconds?: number;
  /** Authorization code lifetime (default 600 s). */
  authorizationCodeTtlSeconds?: number;
  /** How long an upload_url accepts chunks (default 3,600 s). */
  uploadUrlTtlSeconds?: number;
  /** Per access token, per endpoint, per minute (defaults: TikTok's documented limits). */
  rateLimits?: Partial<RateLimits>;
  /**
   * The sliding window `rateLimits` are counted over (default 60,000 ms: TikTok's minute).
   * Shorter only for tests that must see a window pass without waiting a minute.
   */
  rateLimitWindowMs?: number;
  /** Time between the last chunk and PUBLISH_COMPLETE (default 1,500 ms). */
  processingMs?: number;
  /**
   * TikTok's moderation: time between PUBLISH_COMPLETE and `publicaly_available_post_id` appearing
   * in the status (default 300,000 ms; minutes to hours at TikTok). 0: the id comes with
   * PUBLISH_COMPLETE, as the sandbox did before.
   */
  postIdDelayMs?: number;
  /** Direct posts per creator per rolling 24 h before spam_risk_too_many_posts (default 15). */
  maxDirectPostsPerDay?: number;
  /** Inbox (draft) shares per creator per rolling 24 h (default 5). */
  maxInboxSharesPerDay?: number;
  /** Clock in epoch milliseconds (default Date.now); every expiry is compared against it. */
  now?: () => number;
  /**
   * JSON file that keeps users, consents and tokens across restarts (default: none, all in
   * memory). Read once at construction; written (0600, atomically) shortly after each change and
   * on `flush()`. Posts and authorization codes are never saved.
   */
  persistFile?: string;
  /** Where an unreadable or unwritable persistFile is reported (default: one line on stderr). */
  onPersistenceWarning?: (message: string) => void;
  /** Time zone the audience model reads posting hours and weekdays in (default Europe/Paris). */
  audienceTimeZone?: string;
}

export interface ResolvedStateOptions {
  clients: SandboxClient[];
  accessTokenTtlSeconds: number;
  refreshTokenTtlSeconds: number;
  authorizationCodeTtlSeconds: number;
  uploadUrlTtlSeconds: number;
  rateLimits: RateLimits;
  rateLimitWindowMs: number;
  processingMs: number;
  postIdDelayMs: number;
  maxDirectPostsPerDay: number;
  maxInboxSharesPerDay: number;
  now: () => number;
  persistFile: string | null;
  onPersistenceWarning: (message: string) => void;
  audienceTimeZone: string;
}

function warnOnStderr(message: string): void {
  process.stderr.write(`[tiktok-sandbox] ${message}\n`);
}

export function resolveStateOptions(options: SandboxStateOptions = {}): ResolvedStateOptions {
  return {
    clients: options.clients ?? [DEFAULT_SANDBOX_CLIENT],
    accessTokenTtlSeconds: options.accessTokenTtlSeconds ?? 86_400,
    refreshTokenTtlSeconds: options.refreshTokenTtlSeconds ?? 31_536_000,
    authorizationCodeTtlSeconds: options.authorizationCodeTtlSeconds ?? 600,
    uploadUrlTtlSeconds: options.uploadUrlTtlSeconds ?? 3_600,
    rateLimits: { ...DEFAULT_RATE_LIMITS, ...options.rateLimits },
    rateLimitWindowMs: options.rateLimitWindowMs ?? RATE_LIMIT_WINDOW_MS,
    processingMs: options.processingMs ?? 1_500,
    postIdDelayMs: options.postIdDelayMs ?? DEFAULT_POST_ID_DELAY_MS,
    maxDirectPostsPerDay: options.maxDirectPostsPerDay ?? 15,
    maxInboxSharesPerDay: options.maxInboxSharesPerDay ?? 5,
    now: options.now ?? Date.now,
    persistFile: options.persistFile ?? null,
    onPersistenceWarning: options.onPersistenceWarning ?? warnOnStderr,
    audienceTimeZone: options.audienceTimeZone ?? 'Europe/Paris',
  };
}

/** Where upload_url points: a fixed origin+prefix, or computed per request. */
export type PublicBaseUrl = string | ((request: FastifyRequest) => string);
