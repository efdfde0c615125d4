import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  TIKTOK_MAX_CHUNK_BYTES,
  TIKTOK_MAX_CHUNK_COUNT,
  TIKTOK_MAX_LAST_CHUNK_BYTES,
  TIKTOK_MIN_CHUNK_BYTES,
  planChunks,
  validateChunkPlan,
} from './tiktok-chunks.ts';

const MiB = 1024 * 1024;
const FOUR_GB = 4 * 1024 * MiB;

describe('planChunks', () => {
  it("follows TikTok's worked example: 50,000,123 bytes in 10,000,000-byte chunks", () => {
    const plan = planChunks(50_000_123, 10_000_000);
    expect(plan.chunkSize).toBe(10_000_000);
    expect(plan.totalChunkCount).toBe(5);
    expect(plan.chunks).toHaveLength(5);
    expect(plan.chunks[0]).toEqual({ first: 0, last: 9_999_999, length: 10_000_000 });
    expect(plan.chunks[4]).toEqual({ first: 40_000_000, last: 50_000_122, length: 10_000_123 });
  });

  it('uses 10,000,000-byte chunks by default', () => {
    expect(planChunks(50_000_123)).toMatchObject({ chunkSize: 10_000_000, totalChunkCount: 5 });
  });

  it('sends a video under 5 MB as one chunk with chunk_size equal to the video size', () => {
    expect(planChunks(1_234_567)).toEqual({
      chunkSize: 1_234_567,
      totalChunkCount: 1,
      chunks: [{ first: 0, last: 1_234_566, length: 1_234_567 }],
    });
    expect(planChunks(1)).toMatchObject({ chunkSize: 1, totalChunkCount: 1 });
  });

  it('floors the count, so a remainder smaller than a chunk joins the last one', () => {
    // 19.9 MB at 10 MB: one chunk of 19.9 MB, not two (ceil would make a 9.9 MB second chunk).
    const plan = planChunks(19_900_000, 10_000_000);
    expect(plan.totalChunkCount).toBe(1);
    expect(plan.chunks).toEqual([{ first: 0, last: 19_899_999, length: 19_900_000 }]);
  });

  it('never asks for a chunk larger than the video', () => {
    expect(planChunks(8_000_000, 10_000_000)).toMatchObject({
      chunkSize: 8_000_000,
      totalChunkCount: 1,
    });
  });

  it('clamps the preferred size into 5–64 MiB', () => {
    expect(planChunks(200 * MiB, 1_000).chunkSize).toBe(TIKTOK_MIN_CHUNK_BYTES);
    expect(planChunks(200 * MiB, 500 * MiB).chunkSize).toBe(TIKTOK_MAX_CHUNK_BYTES);
  });

  it('raises the chunk size to stay within 1000 chunks for a 4 GB video', () => {
    const plan = planChunks(FOUR_GB, TIKTOK_MIN_CHUNK_BYTES);
    expect(plan.totalChunkCount).toBeLessThanOrEqual(TIKTOK_MAX_CHUNK_COUNT);
    expect(validateChunkPlan(FOUR_GB, plan.chunkSize, plan.totalChunkCount)).toBeNull();
  });

  it('refuses sizes that are not positive integers', () => {
    expect(() => planChunks(0)).toThrow(RangeError);
    expect(() => planChunks(-5)).toThrow(RangeError);
    expect(() => planChunks(10.5)).toThrow(RangeError);
    expect(() => planChunks(10_000, 0)).toThrow(RangeError);
  });

  it('holds for any video size and preferred chunk size (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: FOUR_GB }),
        fc.integer({ min: 1, max: 200 * MiB }),
        (videoSize, preferred) => {
          const plan = planChunks(videoSize, preferred);
          const { chunks } = plan;
          expect(plan.totalChunkCount).toBe(chunks.length);
          expect(chunks.length).toBeGreaterThanOrEqual(1);
          expect(chunks.length).toBeLessThanOrEqual(TIKTOK_MAX_CHUNK_COUNT);
          expect(plan.totalChunkCount).toBe(Math.floor(videoSize / plan.chunkSize));
          // Contiguous and covering exactly [0, videoSize).
          expect(chunks[0]?.first).toBe(0);
          expect(chunks.at(-1)?.last).toBe(videoSize - 1);
          // Checked without expect() per chunk: a 4 GB plan has up to 1000 chunks and 300 runs.
          const badChunk = chunks.findIndex((chunk, index) => {
            const isLast = index === chunks.length - 1;
            const previousLast = index === 0 ? -1 : (chunks[index - 1]?.last ?? Number.NaN);
            const sizeOk =
              videoSize < TIKTOK_MIN_CHUNK_BYTES ||
              (chunk.length >= TIKTOK_MIN_CHUNK_BYTES &&
                chunk.length <= (isLast ? TIKTOK_MAX_LAST_CHUNK_BYTES : TIKTOK_MAX_CHUNK_BYTES));
            return !(
              chunk.length === chunk.last - chunk.first + 1 &&
              chunk.first === previousLast + 1 &&
              (isLast || chunk.length === plan.chunkSize) &&
              sizeOk
            );
          });
          expect(badChunk).toBe(-1);
          expect(validateChunkPlan(videoSize, plan.chunkSize, plan.totalChunkCount)).toBeNull();
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('validateChunkPlan', () => {
  it('accepts the worked example', () => {
    expect(validateChunkPlan(50_000_123, 10_000_000, 5)).toBeNull();
  });

  it('refuses a ceil-based count (the classic mistake)', () => {
    expect(validateChunkPlan(50_000_123, 10_000_000, 6)).toMatch(/floor/);
  });

  it('refuses splitting a video under 5 MB', () => {
    expect(validateChunkPlan(4_000_000, 2_000_000, 2)).toMatch(/one chunk/);
    expect(validateChunkPlan(4_000_000, 4_000_000, 1)).toBeNull();
  });

  it('refuses chunks outside 5–64 MiB', () => {
    expect(validateChunkPlan(100 * MiB, 4 * MiB, 25)).toMatch(/between 5 MB and 64 MB/);
    expect(validateChunkPlan(200 * MiB, 65 * MiB, 3)).toMatch(/between 5 MB and 64 MB/);
  });

  it('refuses more than 1000 chunks', () => {
    expect(validateChunkPlan(1001 * 5 * MiB, 5 * MiB, 1001)).toMatch(/1000/);
  });

  it('lets the last chunk absorb the remainder, but refuses one oversized single chunk', () => {
    // 130 MiB at 64 MiB: two chunks, the last 66 MiB.
    expect(validateChunkPlan(130 * MiB, 64 * MiB, 2)).toBeNull();
    expect(validateChunkPlan(129 * MiB, 129 * MiB, 1)).toMatch(/between 5 MB and 64 MB/);
  });

  it('refuses non-integers and zero', () => {
    expect(validateChunkPlan(0, 0, 0)).toMatch(/video_size/);
    expect(validateChunkPlan(10_000_000, 5_500_000.5, 1)).toMatch(/chunk_size/);
    expect(validateChunkPlan(10_000_000, 10_000_000, 0)).toMatch(/total_chunk_count/);
  });
});
