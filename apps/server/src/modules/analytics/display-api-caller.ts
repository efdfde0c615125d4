import type { TokenService } from '../accounts/token-service.ts';
import { TikTokApiError } from '../../tiktok/tiktok-error.ts';

/** TikTok's per-token, per-endpoint limit for user info, video list and video query. */
export const DISPLAY_API_PER_MINUTE = 600;

export type DisplayApiCall = 'video_list' | 'video_query' | 'user_info';

/** TikTok kept answering 429 after every retry this run allows itself. */
export class RateLimitedError extends Error {
  override name = 'RateLimitedError';
}

/** The pacing and retry rules of a sync run's calls (defaults in AnalyticsSyncDeps). */
export interface DisplayApiCallerOptions {
  tokens: Pick<TokenService, 'getAccessToken' | 'refresh'>;
  now: () => number;
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  perMinute: number;
  backoffBaseMs: number;
  backoffMaxMs: number;
  maxRetries: number;
}

export type DisplayApiCaller = ReturnType<typeof createDisplayApiCaller>;

/** One run's TikTok caller: its token, per-endpoint pacing, backoff on 429 and 5xx, counts. */
export function createDisplayApiCaller(
  options: DisplayApiCallerOptions,
  accountId: string,
  signal: AbortSignal | undefined,
) {
  const { tokens, now, sleep, perMinute, backoffBaseMs, backoffMaxMs, maxRetries } = options;
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
