import { createHash } from 'node:crypto';
import type { SandboxPost } from './post-store.ts';

/** What the sandbox will download for one PULL_FROM_URL post, at most (TikTok's 4 GB). */
const MAX_PULL_BYTES = 4 * 1024 * 1024 * 1024;
/** A download that has not finished by then fails (TikTok's own limit is not documented). */
const PULL_TIMEOUT_MS = 60_000;
const HEADER_BYTES = 16;

/**
 * Downloads a PULL_FROM_URL post's video as TikTok would, and records it on the post like a
 * finished upload; any failure (an HTTP error such as an expired link's 403, a redirect, a
 * timeout, too many bytes) ends the post FAILED with `video_pull_failed`. Bounded: http(s) only,
 * no redirects followed, 60 s, 4 GB, streamed through the hash (never held in memory).
 */
export async function pullVideo(
  post: SandboxPost,
  videoUrl: string,
  now: () => number,
): Promise<void> {
  const fail = () => {
    post.forcedFailReason = 'video_pull_failed';
    post.pullInProgress = false;
  };
  try {
    const url = new URL(videoUrl);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return fail();
    const response = await fetch(url, {
      redirect: 'error',
      signal: AbortSignal.timeout(PULL_TIMEOUT_MS),
    });
    if (!response.ok || response.body === null) {
      await response.body?.cancel();
      return fail();
    }
    const hash = createHash('sha256');
    let header = Buffer.alloc(0);
    let size = 0;
    for await (const chunk of response.body) {
      const bytes = Buffer.from(chunk);
      size += bytes.length;
      if (size > MAX_PULL_BYTES) return fail();
      hash.update(bytes);
      if (header.length < HEADER_BYTES) {
        header = Buffer.concat([header, bytes.subarray(0, HEADER_BYTES - header.length)]);
      }
    }
    post.videoSize = size;
    post.receivedBytes = size;
    post.header = header;
    post.sha256 = hash.digest('hex');
    post.uploadCompletedAt = now();
    post.pullInProgress = false;
  } catch {
    fail();
  }
}
