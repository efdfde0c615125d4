import { describe, expect, it } from 'vitest';
import {
  MIN_BYTES,
  MIN_ELAPSED_MS,
  remainingMs,
  roundTimeLeft,
  trackTransfer,
  type TransferEstimate,
} from './upload-estimate.ts';

const MB = 1024 ** 2;

/** The estimate after events at the given [ms, bytes sent] points. */
function track(points: readonly (readonly [number, number])[]): TransferEstimate | null {
  return points.reduce<TransferEstimate | null>(
    (estimate, [at, bytes]) => trackTransfer(estimate, at, bytes),
    null,
  );
}

/** Events every `stepMs` from `fromMs` to `toMs` at `bytesPerSecond`, starting at `fromBytes`. */
function steady(fromMs: number, toMs: number, bytesPerSecond: number, fromBytes = 0, stepMs = 100) {
  const points: [number, number][] = [];
  for (let at = fromMs; at <= toMs; at += stepMs) {
    points.push([at, fromBytes + ((at - fromMs) / 1000) * bytesPerSecond]);
  }
  return points;
}

describe('upload time left', () => {
  it('estimates a steady upload exactly: 1 GB at 1 MB/s, 10 s in', () => {
    const estimate = track(steady(0, 10_000, MB));
    // 1024 MB to send, 10 sent, 1 MB/s: 1014 s.
    expect(remainingMs(estimate, 1024 * MB)).toBeCloseTo(1_014_000, -2);
  });

  it('says nothing before a few seconds and bytes have gone', () => {
    expect(remainingMs(null, MB)).toBeNull();
    expect(remainingMs(track([[0, 0]]), 100 * MB)).toBeNull();
    // Fast, but too soon.
    expect(remainingMs(track(steady(0, MIN_ELAPSED_MS - 100, MB)), 100 * MB)).toBeNull();
    // Long enough, but a trickle.
    const trickle = track(steady(0, 10_000, (MIN_BYTES - 1) / 10));
    expect(remainingMs(trickle, 100 * MB)).toBeNull();
    expect(remainingMs(track(steady(0, MIN_ELAPSED_MS, MB)), 100 * MB)).not.toBeNull();
  });

  it('counts from the first event, so a resumed upload is not credited with the bytes it had', () => {
    // Resumed at 500 MB: 3 s at 1 MB/s leaves 521 MB, about 521 s, not a few seconds.
    const estimate = track(steady(0, 3_000, MB, 500 * MB));
    expect(remainingMs(estimate, 1024 * MB)).toBeCloseTo(521_000, -3);
  });

  it('smooths one burst instead of jumping to it', () => {
    const points = steady(0, 10_000, MB);
    // 5 MB arrive in 100 ms (a buffer flushing), then the steady rate again.
    points.push([10_100, 15 * MB], ...steady(10_200, 10_500, MB, 15.1 * MB));
    const secondsLeft = remainingMs(track(points), 1024 * MB)! / 1000;
    const atBurstRate = (1024 - 15) / 50;
    expect(secondsLeft).toBeGreaterThan(atBurstRate * 10);
  });

  it('follows a connection that slows down within seconds', () => {
    // 10 s at 4 MB/s, then 20 s at 1 MB/s: the estimate is close to 1 MB/s's.
    const points = [...steady(0, 10_000, 4 * MB), ...steady(10_100, 30_000, MB, 40.1 * MB)];
    const estimate = track(points);
    const left = remainingMs(estimate, 1024 * MB)!;
    const sent = estimate!.lastBytes;
    expect(left / ((1024 * MB - sent) / MB) / 1000).toBeGreaterThan(0.9);
    expect(left / ((1024 * MB - sent) / MB) / 1000).toBeLessThan(1.1);
  });

  it('counts the pauses between requests in the rate', () => {
    // Each second: 500 ms sending at 2 MB/s, then 500 ms waiting for the server: 1 MB/s overall.
    const points: [number, number][] = [];
    for (let second = 0; second < 30; second += 1) {
      for (let ms = 0; ms <= 500; ms += 100)
        points.push([second * 1000 + ms, (second + ms / 500) * MB]);
    }
    const left = remainingMs(track(points), 1024 * MB)!;
    expect(left / 1000).toBeGreaterThan((1024 - 30) * 0.8);
    expect(left / 1000).toBeLessThan((1024 - 30) * 1.25);
  });

  it('starts counting again when tus goes back to the server’s offset after a failed request', () => {
    const before = track(steady(0, 10_000, MB));
    const back = trackTransfer(before, 10_100, 5 * MB);
    expect(back.lastBytes).toBe(5 * MB);
    expect(back.rate).toBe(before!.rate);
    // Not meaningful again until a few seconds after the step back.
    expect(remainingMs(back, 100 * MB)).toBeNull();
  });

  it('gives no estimate while nothing moves', () => {
    expect(
      remainingMs(
        track([
          [0, 0],
          [5_000, 0],
          [10_000, 0],
        ]),
        MB,
      ),
    ).toBeNull();
  });

  it('rounds as people say it', () => {
    expect(roundTimeLeft(0)).toEqual({ unit: 'lessThanMinute' });
    expect(roundTimeLeft(59_999)).toEqual({ unit: 'lessThanMinute' });
    expect(roundTimeLeft(60_000)).toEqual({ unit: 'minute', value: 1 });
    expect(roundTimeLeft(89_000)).toEqual({ unit: 'minute', value: 1 });
    expect(roundTimeLeft(3 * 60_000 + 10_000)).toEqual({ unit: 'minute', value: 3 });
    expect(roundTimeLeft(59 * 60_000)).toEqual({ unit: 'minute', value: 59 });
    // 59 min 40 s is 'about 1 h', not '60 min'.
    expect(roundTimeLeft(59 * 60_000 + 40_000)).toEqual({ unit: 'hour', value: 1 });
    expect(roundTimeLeft(95 * 60_000)).toEqual({ unit: 'hour', value: 1.5 });
    expect(roundTimeLeft(9.6 * 3_600_000)).toEqual({ unit: 'hour', value: 9.5 });
    expect(roundTimeLeft(12.4 * 3_600_000)).toEqual({ unit: 'hour', value: 12 });
  });
});
