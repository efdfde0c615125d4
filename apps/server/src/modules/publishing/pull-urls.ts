// PULL_FROM_URL (docs/decisions/031-media-transfer.md): instead of uploading chunks, the worker
// gives TikTok a short-lived signed link to the post's video, which TikTok downloads. The link is
// unauthenticated (TikTok has no session), so it carries its own proof: an HMAC over the post id
// and an expiry, checked by GET /api/pull-media/:postId. It serves that one file and nothing else.
import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';
import type { Config } from '../../config.ts';

/** Where Cadence serves the media TikTok pulls; TIKTOK_PULL_FROM_URL_PREFIX must lead to it. */
export const PULL_MEDIA_PATH = '/api/pull-media/';
/** How long a link works: TikTok downloads at once, a retried post gets a fresh link. */
export const PULL_URL_TTL_MS = 60 * 60 * 1000;

export type PullCheck = 'ok' | 'expired' | 'invalid';

export interface PullUrls {
  /** The signed link to the post's video, valid `ttlMs` from `now`. */
  urlFor(postId: string, now?: number, ttlMs?: number): string;
  check(postId: string, expires: string, signature: string, now?: number): PullCheck;
}

/** The signer of a deployment, or null when PULL_FROM_URL is off (no prefix: FILE_UPLOAD). */
export function createPullUrls(config: Pick<Config, 'publicUrl' | 'sessionSecret' | 'tiktok'>) {
  if (config.tiktok.pullFromUrlPrefix === null) return null;
  // A key of its own, derived from the session secret: a link can never pass for a cookie.
  const key = Buffer.from(
    hkdfSync('sha256', config.sessionSecret, 'cadence', 'pull-from-url links', 32),
  );
  const sign = (postId: string, expires: string) =>
    createHmac('sha256', key).update(`${postId}\n${expires}`).digest('base64url');
  const base = `${config.publicUrl}${PULL_MEDIA_PATH}`;
  return {
    urlFor(postId, now = Date.now(), ttlMs = PULL_URL_TTL_MS) {
      const expires = String(Math.floor((now + ttlMs) / 1000));
      const query = new URLSearchParams({ expires, signature: sign(postId, expires) });
      return `${base}${encodeURIComponent(postId)}?${query.toString()}`;
    },
    check(postId, expires, signature, now = Date.now()) {
      const expected = Buffer.from(sign(postId, expires));
      const given = Buffer.from(signature);
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) return 'invalid';
      return Number(expires) * 1000 <= now ? 'expired' : 'ok';
    },
  } satisfies PullUrls;
}
