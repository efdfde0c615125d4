/**
 * TikTok's FILE_UPLOAD chunk rules (Content Posting API, media transfer guide), shared by the
 * publisher that plans uploads and the sandbox that enforces them.
 *
 * MB is read as MiB here: a plan within 5 MiB..64 MiB per chunk is valid whichever way TikTok
 * counts, and a video under 5 MiB is always sent whole, which is valid either way too.
 */

export const TIKTOK_MIN_CHUNK_BYTES = 5 * 1024 * 1024;
export const TIKTOK_MAX_CHUNK_BYTES = 64 * 1024 * 1024;
/** The last chunk absorbs the remainder, so it may reach twice the normal maximum. */
export const TIKTOK_MAX_LAST_CHUNK_BYTES = 128 * 1024 * 1024;
export const TIKTOK_MAX_CHUNK_COUNT = 1000;
export const TIKTOK_DEFAULT_CHUNK_BYTES = 10_000_000;

export interface ChunkRange {
  /** Offset of the chunk's first byte. */
  first: number;
  /** Offset of the chunk's last byte, inclusive (as in `Content-Range: bytes first-last/total`). */
  last: number;
  length: number;
}

export interface ChunkPlan {
  chunkSize: number;
  totalChunkCount: number;
  chunks: ChunkRange[];
}

function isPositiveSafeInteger(value: number): boolean {
  return Number.isSafeInteger(value) && value > 0;
}

/** Byte ranges of a plan: every chunk is `chunkSize` long except the last, which takes the rest. */
export function chunkRanges(
  videoSize: number,
  chunkSize: number,
  totalChunkCount: number,
): ChunkRange[] {
  const chunks: ChunkRange[] = [];
  for (let index = 0; index < totalChunkCount; index++) {
    const first = index * chunkSize;
    const last = index === totalChunkCount - 1 ? videoSize - 1 : first + chunkSize - 1;
    chunks.push({ first, last, length: last - first + 1 });
  }
  return chunks;
}

/**
 * Plans a FILE_UPLOAD: `chunkSize` is the preferred size (default 10,000,000 bytes) clamped to
 * 5–64 MiB, never larger than the video, and raised when the video would otherwise need more than
 * 1000 chunks; the count is floor(videoSize / chunkSize) and the last chunk takes the remainder.
 * A video under 5 MiB is a single chunk with chunkSize = videoSize.
 * Throws a RangeError when the size is not a positive integer or no valid plan exists.
 */
export function planChunks(
  videoSize: number,
  preferredChunkSize: number = TIKTOK_DEFAULT_CHUNK_BYTES,
): ChunkPlan {
  if (!isPositiveSafeInteger(videoSize)) {
    throw new RangeError(`video size must be a positive integer, got ${videoSize}`);
  }
  if (!isPositiveSafeInteger(preferredChunkSize)) {
    throw new RangeError(`chunk size must be a positive integer, got ${preferredChunkSize}`);
  }
  if (videoSize < TIKTOK_MIN_CHUNK_BYTES) {
    return {
      chunkSize: videoSize,
      totalChunkCount: 1,
      chunks: chunkRanges(videoSize, videoSize, 1),
    };
  }
  let chunkSize = Math.min(
    Math.max(preferredChunkSize, TIKTOK_MIN_CHUNK_BYTES),
    TIKTOK_MAX_CHUNK_BYTES,
    videoSize,
  );
  // floor(size / ceil(size / 1000)) <= 1000, so this caps the count without overshooting.
  chunkSize = Math.max(chunkSize, Math.ceil(videoSize / TIKTOK_MAX_CHUNK_COUNT));
  const totalChunkCount = Math.floor(videoSize / chunkSize);
  const error = validateChunkPlan(videoSize, chunkSize, totalChunkCount);
  if (error !== null) {
    throw new RangeError(`cannot plan chunks for ${videoSize} bytes: ${error}`);
  }
  return { chunkSize, totalChunkCount, chunks: chunkRanges(videoSize, chunkSize, totalChunkCount) };
}

/** Checks a declared plan against TikTok's rules; returns what is wrong, or null when valid. */
export function validateChunkPlan(
  videoSize: number,
  chunkSize: number,
  totalChunkCount: number,
): string | null {
  if (!isPositiveSafeInteger(videoSize)) return 'video_size must be a positive integer';
  if (!isPositiveSafeInteger(chunkSize)) return 'chunk_size must be a positive integer';
  if (!isPositiveSafeInteger(totalChunkCount)) {
    return 'total_chunk_count must be a positive integer';
  }
  if (videoSize < TIKTOK_MIN_CHUNK_BYTES) {
    if (chunkSize !== videoSize || totalChunkCount !== 1) {
      return 'a video under 5 MB must be uploaded as one chunk with chunk_size equal to video_size';
    }
    return null;
  }
  if (chunkSize < TIKTOK_MIN_CHUNK_BYTES || chunkSize > TIKTOK_MAX_CHUNK_BYTES) {
    return 'chunk_size must be between 5 MB and 64 MB';
  }
  if (totalChunkCount !== Math.floor(videoSize / chunkSize)) {
    return 'total_chunk_count must equal floor(video_size / chunk_size)';
  }
  if (totalChunkCount > TIKTOK_MAX_CHUNK_COUNT) return 'total_chunk_count must be at most 1000';
  const lastChunkSize = videoSize - (totalChunkCount - 1) * chunkSize;
  if (lastChunkSize > TIKTOK_MAX_LAST_CHUNK_BYTES) {
    return 'the last chunk must be at most 128 MB';
  }
  return null;
}
