import type { Interval } from '../../apps/server/src/modules/memes/engine/types.ts';

/** Baseline 1: `count` clips of `clipSeconds`, evenly spread over the video. */
export function uniformExtracts(
  durationSeconds: number,
  count: number,
  clipSeconds: number,
): Interval[] {
  return Array.from({ length: count }, (_, k) => {
    const centre = ((k + 0.5) * durationSeconds) / count;
    const start = Math.min(Math.max(0, centre - clipSeconds / 2), durationSeconds - clipSeconds);
    return { startSeconds: start, endSeconds: start + clipSeconds };
  });
}

/**
 * Baseline 2: the loudest windows, by raw mean energy with no local baseline — what a naive
 * 'find the loud bits' detector does. Non-overlapping, best first, returned in time order.
 */
export function loudestWindows(
  rmsDbPerSecond: number[],
  count: number,
  windowSeconds: number,
): Interval[] {
  const energy = rmsDbPerSecond.map((db) => 10 ** (db / 10));
  const windows: { start: number; energy: number }[] = [];
  for (let start = 0; start + windowSeconds <= energy.length; start += 1) {
    const slice = energy.slice(start, start + windowSeconds);
    windows.push({ start, energy: slice.reduce((sum, e) => sum + e, 0) / slice.length });
  }
  windows.sort((a, b) => b.energy - a.energy || a.start - b.start);
  const chosen: number[] = [];
  for (const window of windows) {
    if (chosen.length >= count) break;
    if (chosen.every((start) => Math.abs(start - window.start) >= windowSeconds)) {
      chosen.push(window.start);
    }
  }
  return chosen
    .sort((a, b) => a - b)
    .map((start) => ({ startSeconds: start, endSeconds: start + windowSeconds }));
}
