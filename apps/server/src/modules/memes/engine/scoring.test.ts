import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  HIGHLIGHT_MIN_SCORE,
  expandAndSnap,
  fillTarget,
  mergeIntervals,
  pickPeaks,
  planExtracts,
  scoreSeconds,
  smoothScores,
} from './scoring.ts';
import type { Extract, FeatureTrack, SecondFeatures } from './types.ts';

/** Quiet, slowly moving footage with a little natural variation. */
function quietSeconds(count: number): SecondFeatures[] {
  return Array.from({ length: count }, (_, second) => ({
    second,
    rmsDb: -32 + ((second * 7) % 5) * 0.4,
    peakDb: -20,
    silent: false,
    motion: 0.3 + ((second * 3) % 4) * 0.05,
    cuts: 0,
    black: false,
    frozen: false,
    heat: null,
  }));
}

function withRange(
  seconds: SecondFeatures[],
  from: number,
  to: number,
  change: Partial<SecondFeatures>,
): SecondFeatures[] {
  return seconds.map((s) => (s.second >= from && s.second < to ? { ...s, ...change } : s));
}

const burst = { rmsDb: -10, peakDb: -1, cuts: 3, motion: 15 };
const total = (extracts: { startSeconds: number; endSeconds: number }[]) =>
  extracts.reduce((sum, e) => sum + e.endSeconds - e.startSeconds, 0);

function track(perSecond: SecondFeatures[], extra: Partial<FeatureTrack> = {}): FeatureTrack {
  return {
    durationSeconds: perSecond.length,
    hasAudio: true,
    perSecond,
    sceneCuts: [],
    silences: [],
    ...extra,
  };
}

describe('scoreSeconds', () => {
  it('scores a few loud, fast-cut seconds high and the calm around them low', () => {
    const scores = scoreSeconds(withRange(quietSeconds(120), 50, 55, burst));
    for (let s = 50; s < 55; s += 1) expect(scores[s]).toBeGreaterThan(0.8);
    expect(Math.max(...scores.slice(0, 45), ...scores.slice(60))).toBeLessThan(0.1);
  });

  it('does not score the body of a long stretch of constant loud music', () => {
    const perSecond = withRange(quietSeconds(180), 60, 100, { rmsDb: -9, peakDb: -3 });
    const scores = scoreSeconds(perSecond);
    // Its own level becomes its baseline: only its first seconds may stand out, and barely.
    expect(Math.max(...scores.slice(62, 100))).toBeLessThan(0.05);
    expect(Math.max(...smoothScores(scores))).toBeLessThan(HIGHLIGHT_MIN_SCORE);
  });

  it('gives a single loud click no smoothed score', () => {
    const scores = scoreSeconds(withRange(quietSeconds(90), 40, 41, { rmsDb: -12, peakDb: -1 }));
    expect(scores[40]).toBeGreaterThan(0.3);
    expect(smoothScores(scores)[40]).toBeLessThan(0.05);
  });

  it('scores black and frozen seconds zero even when loud', () => {
    let perSecond = withRange(quietSeconds(90), 30, 35, { ...burst, black: true });
    perSecond = withRange(perSecond, 60, 65, { ...burst, frozen: true });
    const scores = scoreSeconds(perSecond);
    expect(scores.slice(30, 35)).toEqual([0, 0, 0, 0, 0]);
    expect(scores.slice(60, 65)).toEqual([0, 0, 0, 0, 0]);
  });

  it('still finds cut flurries in a video without audio', () => {
    const silent = quietSeconds(90).map((s) => ({ ...s, rmsDb: -100, peakDb: -100 }));
    const scores = scoreSeconds(withRange(silent, 40, 45, { cuts: 4, motion: 20 }));
    expect(scores[42]).toBeGreaterThan(0.8);
    expect(scores[10]).toBeLessThan(0.05);
  });

  it('blends in the most-replayed heatmap', () => {
    const perSecond = quietSeconds(90).map((s) => ({ ...s, heat: s.second === 70 ? 1 : 0.1 }));
    const scores = scoreSeconds(perSecond, { heatmapWeight: 0.35 });
    expect(scores[70]).toBeCloseTo(0.35, 1);
    expect(scores[20]).toBeLessThan(0.1);
  });
});

describe('pickPeaks', () => {
  it('keeps peaks at least the minimum distance apart, best first', () => {
    const scores = new Array<number>(60).fill(0);
    scores[10] = 0.9;
    scores[14] = 0.8; // too close to 10
    scores[25] = 0.7;
    scores[40] = 0.95;
    const peaks = pickPeaks(scores, { minDistanceSeconds: 10 });
    expect(peaks.slice(0, 3)).toEqual([
      { second: 40, score: 0.95 },
      { second: 10, score: 0.9 },
      { second: 25, score: 0.7 },
    ]);
    expect(peaks.map((p) => p.second)).not.toContain(14);
    for (const a of peaks) {
      for (const b of peaks)
        if (a !== b) expect(Math.abs(a.second - b.second)).toBeGreaterThanOrEqual(10);
    }
  });

  it('spreads peaks evenly over a flat score and skips ineligible seconds', () => {
    const flat = new Array<number>(50).fill(0);
    expect(pickPeaks(flat).map((p) => p.second)).toEqual([0, 10, 20, 30, 40]);
    const eligible = flat.map((_, s) => s >= 20);
    expect(pickPeaks(flat, { eligible }).map((p) => p.second)).toEqual([20, 30, 40]);
  });
});

describe('expandAndSnap', () => {
  const scores = new Array<number>(100).fill(0.02);
  for (let s = 40; s < 45; s += 1) scores[s] = 0.9;

  it('grows over the elevated seconds around the peak', () => {
    const extract = expandAndSnap({ second: 42, score: 0.9 }, scores, { durationSeconds: 100 });
    expect(extract).toEqual({ startSeconds: 40, endSeconds: 45, score: 0.9, peakSeconds: 42 });
  });

  it('never exceeds the maximum and pads short moments to the minimum', () => {
    const long = new Array<number>(100).fill(0.9);
    const grown = expandAndSnap({ second: 50, score: 0.9 }, long, { durationSeconds: 100 });
    expect(grown.endSeconds - grown.startSeconds).toBe(8);
    const spike = new Array<number>(100).fill(0);
    spike[50] = 1;
    const padded = expandAndSnap({ second: 50, score: 1 }, spike, { durationSeconds: 100 });
    expect(padded.endSeconds - padded.startSeconds).toBe(4);
    expect(padded.startSeconds).toBeLessThanOrEqual(50);
    expect(padded.endSeconds).toBeGreaterThanOrEqual(51);
  });

  it('moves edges to nearby scene cuts and silences, within the tolerance', () => {
    const extract = expandAndSnap({ second: 42, score: 0.9 }, scores, {
      durationSeconds: 100,
      startSnapPoints: [37.5, 40.25],
      endSnapPoints: [44.5, 47],
    });
    expect(extract.startSeconds).toBe(40.25);
    expect(extract.endSeconds).toBe(44.5);
  });

  it('stays inside the video', () => {
    const edge = new Array<number>(10).fill(0.9);
    const extract = expandAndSnap({ second: 0, score: 0.9 }, edge, { durationSeconds: 9.5 });
    expect(extract.startSeconds).toBe(0);
    expect(extract.endSeconds).toBeLessThanOrEqual(9.5);
  });
});

describe('mergeIntervals', () => {
  it('merges overlapping extracts, keeping the best score and its peak', () => {
    const merged = mergeIntervals([
      { startSeconds: 20, endSeconds: 26, score: 0.4, peakSeconds: 22 },
      { startSeconds: 0, endSeconds: 5, score: 0.1, peakSeconds: 2 },
      { startSeconds: 24, endSeconds: 30, score: 0.9, peakSeconds: 27 },
    ]);
    expect(merged).toEqual([
      { startSeconds: 0, endSeconds: 5, score: 0.1, peakSeconds: 2 },
      { startSeconds: 20, endSeconds: 30, score: 0.9, peakSeconds: 27 },
    ]);
  });
});

describe('fillTarget', () => {
  const candidate = (start: number, length: number, score: number): Extract => ({
    startSeconds: start,
    endSeconds: start + length,
    score,
    peakSeconds: start + Math.floor(length / 2),
  });

  it('fills exactly 60 s best-first, trims the last and returns time order', () => {
    const candidates = [
      candidate(300, 8, 0.2),
      candidate(10, 8, 0.9),
      candidate(100, 8, 0.8),
      ...Array.from({ length: 10 }, (_, k) => candidate(400 + k * 20, 8, 0.5 - k * 0.01)),
    ];
    const chosen = fillTarget(candidates, { targetSeconds: 60, durationSeconds: 700 });
    expect(total(chosen)).toBeCloseTo(60, 9);
    expect(chosen.map((e) => e.startSeconds)).toEqual(
      [...chosen.map((e) => e.startSeconds)].sort((a, b) => a - b),
    );
    expect(chosen.some((e) => e.startSeconds === 10)).toBe(true);
    expect(chosen.some((e) => e.startSeconds === 100)).toBe(true);
    // The lowest-scored candidate is the one left out.
    expect(chosen.some((e) => e.startSeconds === 300)).toBe(false);
  });

  it('grows extracts into free time when candidates are too few', () => {
    const chosen = fillTarget([candidate(30, 6, 0.9)], { durationSeconds: 120 });
    expect(total(chosen)).toBeCloseTo(60, 9);
    expect(chosen.every((e) => e.startSeconds >= 0 && e.endSeconds <= 120)).toBe(true);
  });

  it('always gives exactly the target, in order, without overlaps, inside the video', () => {
    const arbitraryCandidate = fc
      .record({
        start: fc.double({ min: 0, max: 590, noNaN: true }),
        length: fc.double({ min: 0.5, max: 12, noNaN: true }),
        score: fc.double({ min: 0, max: 1, noNaN: true }),
      })
      .map(({ start, length, score }) => ({
        startSeconds: start,
        endSeconds: Math.min(600, start + length),
        score,
        peakSeconds: Math.floor(start),
      }));
    fc.assert(
      fc.property(fc.array(arbitraryCandidate, { maxLength: 30 }), (candidates) => {
        const chosen = fillTarget(candidates, { targetSeconds: 60, durationSeconds: 600 });
        expect(total(chosen)).toBeCloseTo(60, 6);
        chosen.forEach((extract, i) => {
          expect(extract.startSeconds).toBeGreaterThanOrEqual(0);
          expect(extract.endSeconds).toBeLessThanOrEqual(600);
          const next = chosen[i + 1];
          if (next) expect(next.startSeconds).toBeGreaterThan(extract.endSeconds);
        });
      }),
      { numRuns: 200 },
    );
  });
});

describe('planExtracts', () => {
  it('returns the whole video when it is shorter than the target', () => {
    const plan = planExtracts(track(quietSeconds(42)));
    expect(plan.shorterThanTarget).toBe(true);
    expect(plan.extracts).toEqual([
      expect.objectContaining({ startSeconds: 0, endSeconds: 42 }) as unknown,
    ]);
  });

  it('finds the bursts and fills the rest of the minute with calm footage', () => {
    let perSecond = quietSeconds(300);
    for (const start of [50, 120, 200]) perSecond = withRange(perSecond, start, start + 5, burst);
    const plan = planExtracts(
      track(perSecond, { sceneCuts: [50.25, 55, 120.25, 125, 200.25, 205] }),
    );
    expect(total(plan.extracts)).toBeCloseTo(60, 9);
    const highlights = plan.extracts.filter((e) => e.score >= HIGHLIGHT_MIN_SCORE);
    expect(highlights.map((e) => [e.startSeconds, e.endSeconds])).toEqual([
      [50.25, 55],
      [120.25, 125],
      [200.25, 205],
    ]);
  });

  it('still compiles a minute from an all-silent, static video', () => {
    const silent = quietSeconds(200).map((s) => ({
      ...s,
      rmsDb: -100,
      peakDb: -100,
      silent: true,
      motion: 0.3,
    }));
    const plan = planExtracts(
      track(silent, { hasAudio: true, silences: [{ startSeconds: 0, endSeconds: 200 }] }),
    );
    expect(plan.shorterThanTarget).toBe(false);
    expect(total(plan.extracts)).toBeCloseTo(60, 9);
    // Spread over the video rather than its first minute.
    expect(plan.extracts.at(-1)?.endSeconds ?? 0).toBeGreaterThan(100);
  });

  it('avoids black stretches, but an all-black video still gets its minute', () => {
    let perSecond = withRange(quietSeconds(200), 0, 100, { black: true });
    perSecond = withRange(perSecond, 20, 25, burst);
    const plan = planExtracts(track(perSecond));
    expect(plan.extracts.every((e) => e.startSeconds >= 100)).toBe(true);
    const allBlack = quietSeconds(120).map((s) => ({ ...s, black: true }));
    expect(total(planExtracts(track(allBlack)).extracts)).toBeCloseTo(60, 9);
  });
});
