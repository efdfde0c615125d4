import type { Interval } from '../../apps/server/src/modules/memes/engine/types.ts';

/** Temporal intersection over union of two intervals (0 when disjoint). */
export function temporalIoU(a: Interval, b: Interval): number {
  const intersection = Math.max(
    0,
    Math.min(a.endSeconds, b.endSeconds) - Math.max(a.startSeconds, b.startSeconds),
  );
  const union = a.endSeconds - a.startSeconds + (b.endSeconds - b.startSeconds) - intersection;
  return union > 0 ? intersection / union : 0;
}

export interface Counts {
  truePositives: number;
  predicted: number;
  truth: number;
}

/**
 * Greedy one-to-one matching: pairs at or above the IoU threshold, best IoU first, each
 * prediction and each truth used once.
 */
export function matchIntervals(
  predicted: Interval[],
  truth: Interval[],
  iouThreshold: number,
): Counts {
  const pairs: { p: number; t: number; iou: number }[] = [];
  predicted.forEach((prediction, p) => {
    truth.forEach((actual, t) => {
      const iou = temporalIoU(prediction, actual);
      if (iou >= iouThreshold) pairs.push({ p, t, iou });
    });
  });
  pairs.sort((a, b) => b.iou - a.iou);
  const usedPredictions = new Set<number>();
  const usedTruth = new Set<number>();
  for (const pair of pairs) {
    if (usedPredictions.has(pair.p) || usedTruth.has(pair.t)) continue;
    usedPredictions.add(pair.p);
    usedTruth.add(pair.t);
  }
  return { truePositives: usedTruth.size, predicted: predicted.length, truth: truth.length };
}

/** Per-second labels: a second is positive when at least half of it is covered. */
export function secondLabels(intervals: Interval[], durationSeconds: number): boolean[] {
  return Array.from({ length: Math.ceil(durationSeconds) }, (_, second) => {
    const covered = intervals.reduce(
      (sum, interval) =>
        sum +
        Math.max(
          0,
          Math.min(interval.endSeconds, second + 1) - Math.max(interval.startSeconds, second),
        ),
      0,
    );
    return covered >= 0.5;
  });
}

export function secondCounts(
  predicted: Interval[],
  truth: Interval[],
  durationSeconds: number,
): Counts {
  const p = secondLabels(predicted, durationSeconds);
  const t = secondLabels(truth, durationSeconds);
  return {
    truePositives: p.filter((label, i) => label && t[i]).length,
    predicted: p.filter(Boolean).length,
    truth: t.filter(Boolean).length,
  };
}

export interface Scores {
  precision: number;
  recall: number;
  f1: number;
}

export function addCounts(a: Counts, b: Counts): Counts {
  return {
    truePositives: a.truePositives + b.truePositives,
    predicted: a.predicted + b.predicted,
    truth: a.truth + b.truth,
  };
}

export const NO_COUNTS: Counts = { truePositives: 0, predicted: 0, truth: 0 };

/** Precision, recall and F1 of (micro-averaged) counts; 0 where undefined. */
export function scoresOf(counts: Counts): Scores {
  const precision = counts.predicted > 0 ? counts.truePositives / counts.predicted : 0;
  const recall = counts.truth > 0 ? counts.truePositives / counts.truth : 0;
  const f1 = precision + recall > 0 ? (2 * precision * recall) / (precision + recall) : 0;
  return { precision, recall, f1 };
}
