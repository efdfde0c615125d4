import type { Extract, FeatureTrack, HeatmapPoint, Interval, SecondFeatures } from './types.ts';

/**
 * From per-second features to the extracts of a one-minute compilation. Everything here is pure:
 * the ffmpeg side (features.ts) only measures.
 *
 * The idea: a highlight is a moment that stands out from its own surroundings. Each signal is
 * compared with a rolling median of the ~30 s around it (robust z-score), so a long stretch of
 * loud music or a fast-cut video sets its own baseline and does not score, while a few seconds
 * of shouting, crashing and rapid cuts in calmer footage do.
 */

export interface ScoringOptions {
  /** Seconds each side of a second that form its baseline (default 15: events under ~15 s stand out). */
  baselineHalfWindowSeconds?: number;
  /** Share of YouTube's 'most replayed' value in the final score when present (default 0.35). */
  heatmapWeight?: number;
}

/** Scores at or above this are real highlights; below, an extract only fills the minute. */
export const HIGHLIGHT_MIN_SCORE = 0.3;

/** Each robust z-score is capped here so no single signal dominates; scores are z / cap. */
const Z_CAP = 4;
const SILENT_DB = -100;

function median(values: number[]): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  const upper = sorted[middle] ?? 0;
  if (sorted.length % 2 === 1) return upper;
  return ((sorted[middle - 1] ?? upper) + upper) / 2;
}

/** Rolling median and MAD (median absolute deviation) over [i - half, i + half], truncated at the ends. */
export function rollingMedianAndMad(
  values: number[],
  halfWindow: number,
): { median: number[]; mad: number[] } {
  const medians: number[] = [];
  const mads: number[] = [];
  for (let i = 0; i < values.length; i += 1) {
    const window = values.slice(Math.max(0, i - halfWindow), i + halfWindow + 1);
    const m = median(window);
    medians.push(m);
    mads.push(median(window.map((value) => Math.abs(value - m))));
  }
  return { median: medians, mad: mads };
}

/**
 * How far each value rises above its local baseline, in robust standard deviations, clamped to
 * [0, Z_CAP]. `minScale` keeps near-constant stretches (a MAD of ~0) from turning noise into peaks.
 */
export function risingRobustZ(values: number[], halfWindow: number, minScale: number): number[] {
  const { median: medians, mad } = rollingMedianAndMad(values, halfWindow);
  return values.map((value, i) => {
    const scale = Math.max(1.4826 * (mad[i] ?? 0), minScale);
    const z = (value - (medians[i] ?? value)) / scale;
    return Math.min(Math.max(z, 0), Z_CAP);
  });
}

/** Per-second 'most replayed' value: the bucket holding the middle of each second, else null. */
export function heatForSeconds(heatmap: HeatmapPoint[], secondCount: number): (number | null)[] {
  return Array.from({ length: secondCount }, (_, second) => {
    const middle = second + 0.5;
    const bucket = heatmap.find(
      (point) => point.startSeconds <= middle && middle < point.endSeconds,
    );
    return bucket ? bucket.value : null;
  });
}

/**
 * Per-second score in 0..1: 0.5 loudness rise + 0.3 cut density rise + 0.2 motion rise (or 0.6 /
 * 0.4 without audio), blended with 'most replayed' when present. Black and frozen seconds score 0.
 */
export function scoreSeconds(perSecond: SecondFeatures[], options: ScoringOptions = {}): number[] {
  const { baselineHalfWindowSeconds = 15, heatmapWeight = 0.35 } = options;
  const half = baselineHalfWindowSeconds;
  const hasAudio = perSecond.some((s) => s.rmsDb > SILENT_DB);
  // 3 dB: a rise smaller than a doubling of energy is ordinary variation, not an event.
  const loudness = hasAudio
    ? risingRobustZ(
        perSecond.map((s) => s.rmsDb),
        half,
        3,
      )
    : perSecond.map(() => 0);
  const cuts = risingRobustZ(
    perSecond.map((s) => s.cuts),
    half,
    1,
  );
  const motion = risingRobustZ(
    perSecond.map((s) => s.motion),
    half,
    1,
  );
  const [wLoud, wCuts, wMotion] = hasAudio ? [0.5, 0.3, 0.2] : [0, 0.6, 0.4];
  const hasHeat = perSecond.some((s) => s.heat !== null);
  return perSecond.map((s, i) => {
    if (s.black || s.frozen) return 0;
    const own =
      (wLoud * (loudness[i] ?? 0) + wCuts * (cuts[i] ?? 0) + wMotion * (motion[i] ?? 0)) / Z_CAP;
    return hasHeat ? (1 - heatmapWeight) * own + heatmapWeight * (s.heat ?? 0) : own;
  });
}

/** Median of three neighbours: a lone loud click or a single cut is not a moment. */
export function smoothScores(scores: number[]): number[] {
  return scores.map((score, i) => median([scores[i - 1] ?? score, score, scores[i + 1] ?? score]));
}

export interface Peak {
  second: number;
  score: number;
}

export interface PickPeaksOptions {
  /** Minimum distance between two peaks (default 10 s). */
  minDistanceSeconds?: number;
  /** Seconds that may hold a peak (default all); black or frozen ones are not. */
  eligible?: boolean[];
}

/**
 * Local maxima, best first, each at least `minDistanceSeconds` from every better one. Ties go to
 * the earlier second, so a flat score (a static video) yields evenly spaced peaks.
 */
export function pickPeaks(scores: number[], options: PickPeaksOptions = {}): Peak[] {
  const { minDistanceSeconds = 10, eligible } = options;
  const candidates: Peak[] = [];
  scores.forEach((score, second) => {
    if (eligible && eligible[second] === false) return;
    const previous = scores[second - 1] ?? Number.NEGATIVE_INFINITY;
    const next = scores[second + 1] ?? Number.NEGATIVE_INFINITY;
    if (score >= previous && score >= next) candidates.push({ second, score });
  });
  candidates.sort((a, b) => b.score - a.score || a.second - b.second);
  const accepted: Peak[] = [];
  for (const candidate of candidates) {
    if (accepted.every((peak) => Math.abs(peak.second - candidate.second) >= minDistanceSeconds)) {
      accepted.push(candidate);
    }
  }
  return accepted;
}

export interface ExpandOptions {
  durationSeconds: number;
  /** Preferred start edges (scene cuts, ends of silences). */
  startSnapPoints?: number[];
  /** Preferred end edges (scene cuts, starts of silences). */
  endSnapPoints?: number[];
  eligible?: boolean[];
  /** Default 4 s. */
  minSeconds?: number;
  /** Default 8 s. */
  maxSeconds?: number;
  /** How far an edge may move to reach a snap point (default 1 s). */
  snapToleranceSeconds?: number;
  /** A neighbour joins the clip while its score is at least this share of the peak's (default 0.5). */
  growRatio?: number;
}

function nearestWithin(points: number[], target: number, tolerance: number): number | null {
  let best: number | null = null;
  for (const point of points) {
    const distance = Math.abs(point - target);
    if (distance <= tolerance && (best === null || distance < Math.abs(best - target))) {
      best = point;
    }
  }
  return best;
}

/**
 * Grows a clip around a peak while neighbouring seconds stay above `growRatio` × the peak's score
 * (up to `maxSeconds`), pads it to `minSeconds`, then moves each edge to the nearest scene cut or
 * silence within the tolerance so clips start and end on natural boundaries.
 */
export function expandAndSnap(peak: Peak, scores: number[], options: ExpandOptions): Extract {
  const {
    durationSeconds,
    startSnapPoints = [],
    endSnapPoints = [],
    eligible,
    minSeconds = 4,
    maxSeconds = 8,
    snapToleranceSeconds = 1,
    growRatio = 0.5,
  } = options;
  const lastSecond = Math.max(0, Math.ceil(durationSeconds) - 1);
  const usable = (second: number) =>
    second >= 0 && second <= lastSecond && (eligible ? eligible[second] !== false : true);
  const threshold = peak.score * growRatio;
  let left = peak.second;
  let right = peak.second;
  const length = () => Math.min(right + 1, durationSeconds) - left;

  while (length() < maxSeconds) {
    const leftScore = usable(left - 1) ? (scores[left - 1] ?? -1) : -1;
    const rightScore = usable(right + 1) ? (scores[right + 1] ?? -1) : -1;
    if (Math.max(leftScore, rightScore) < threshold || Math.max(leftScore, rightScore) < 0) break;
    if (rightScore >= leftScore) right += 1;
    else left -= 1;
  }
  // Pad short clips evenly, on whichever side is usable.
  let padRight = true;
  while (length() < minSeconds) {
    const canRight = usable(right + 1);
    const canLeft = usable(left - 1);
    if (!canRight && !canLeft) break;
    if ((padRight && canRight) || !canLeft) right += 1;
    else left -= 1;
    padRight = !padRight;
  }

  let start = left;
  let end = Math.min(right + 1, durationSeconds);
  // A snap may shorten a clip a little, never below 3 s, never past the maximum.
  const minSnapped = Math.min(3, end - start);
  const snappedStart = nearestWithin(startSnapPoints, start, snapToleranceSeconds);
  if (
    snappedStart !== null &&
    snappedStart >= 0 &&
    end - snappedStart >= minSnapped &&
    end - snappedStart <= maxSeconds
  ) {
    start = snappedStart;
  }
  const snappedEnd = nearestWithin(endSnapPoints, end, snapToleranceSeconds);
  if (
    snappedEnd !== null &&
    snappedEnd <= durationSeconds &&
    snappedEnd - start >= minSnapped &&
    snappedEnd - start <= maxSeconds
  ) {
    end = snappedEnd;
  }
  return { startSeconds: start, endSeconds: end, score: peak.score, peakSeconds: peak.second };
}

/**
 * Merges extracts that overlap or touch (or are closer than `gapSeconds`); the merged extract
 * keeps the best score and its peak. Result in time order.
 */
export function mergeIntervals(extracts: Extract[], gapSeconds = 0): Extract[] {
  const sorted = [...extracts].sort((a, b) => a.startSeconds - b.startSeconds);
  const merged: Extract[] = [];
  for (const extract of sorted) {
    const last = merged[merged.length - 1];
    if (last && extract.startSeconds <= last.endSeconds + gapSeconds) {
      const better = extract.score > last.score ? extract : last;
      merged[merged.length - 1] = {
        startSeconds: last.startSeconds,
        endSeconds: Math.max(last.endSeconds, extract.endSeconds),
        score: better.score,
        peakSeconds: better.peakSeconds,
      };
    } else {
      merged.push({ ...extract });
    }
  }
  return merged;
}

const totalSeconds = (intervals: Interval[]) =>
  intervals.reduce((sum, interval) => sum + (interval.endSeconds - interval.startSeconds), 0);

/** Trims an extract to `seconds`, centred on its peak as far as its edges allow. */
function trimAroundPeak(extract: Extract, seconds: number): Extract {
  const half = seconds / 2;
  let start = Math.max(extract.startSeconds, extract.peakSeconds + 0.5 - half);
  const end = Math.min(extract.endSeconds, start + seconds);
  start = Math.max(extract.startSeconds, end - seconds);
  return { ...extract, startSeconds: start, endSeconds: start + seconds };
}

/**
 * Lengthens chosen extracts into the free time next to them (lowest score first, ends before starts)
 * until `missing` seconds are added or there is no room left. Returns what is still missing.
 */
function growIntoFreeTime(chosen: Extract[], missing: number, durationSeconds: number): number {
  let left = missing;
  // Filler grows first: highlights keep the edges they were snapped to.
  const byScore = [...chosen].sort((a, b) => a.score - b.score);
  while (left > 1e-9) {
    let grew = false;
    for (const extract of byScore) {
      if (left <= 1e-9) break;
      const others = chosen.filter((other) => other !== extract);
      const nextStart = Math.min(
        durationSeconds,
        ...others.filter((o) => o.startSeconds >= extract.endSeconds).map((o) => o.startSeconds),
      );
      const previousEnd = Math.max(
        0,
        ...others.filter((o) => o.endSeconds <= extract.startSeconds).map((o) => o.endSeconds),
      );
      // One second at a time and side by side keeps the peak near the middle.
      const after = Math.min(nextStart - extract.endSeconds, left, 1);
      if (after > 1e-9) {
        extract.endSeconds += after;
        left -= after;
        grew = true;
      }
      const before = Math.min(extract.startSeconds - previousEnd, left, 1);
      if (before > 1e-9) {
        extract.startSeconds -= before;
        left -= before;
        grew = true;
      }
    }
    if (!grew) break;
  }
  return left;
}

/** Van der Corput order of 0..n-1 (0, n/2, n/4, 3n/4…): any prefix is spread over the whole. */
function spreadOrder(count: number): number[] {
  const radicalInverse = (i: number) => {
    let value = 0;
    let weight = 0.5;
    for (let rest = i; rest > 0; rest = Math.floor(rest / 2), weight /= 2)
      value += (rest % 2) * weight;
    return value;
  };
  return Array.from({ length: count }, (_, i) => i).sort(
    (a, b) => radicalInverse(a) - radicalInverse(b),
  );
}

/**
 * Highlights best first; then the filler, coarsely by score (tenths: small differences in calm
 * footage mean nothing) and, within a tier, spread over the video rather than bunched at its start.
 */
function rankForFill(candidates: Extract[]): Extract[] {
  const highlights = candidates
    .filter((c) => c.score >= HIGHLIGHT_MIN_SCORE)
    .sort((a, b) => b.score - a.score || a.startSeconds - b.startSeconds);
  const filler = candidates
    .filter((c) => c.score < HIGHLIGHT_MIN_SCORE)
    .sort((a, b) => a.startSeconds - b.startSeconds);
  const spread = spreadOrder(filler.length);
  const rankInSpread = new Map(spread.map((index, rank) => [index, rank]));
  const tier = (score: number) => Math.floor(score * 10);
  const fillerRanked = filler
    .map((extract, index) => ({ extract, rank: rankInSpread.get(index) ?? index }))
    .sort((a, b) => tier(b.extract.score) - tier(a.extract.score) || a.rank - b.rank)
    .map(({ extract }) => extract);
  return [...highlights, ...fillerRanked];
}

export interface FillOptions {
  /** Default 60 s. */
  targetSeconds?: number;
  durationSeconds: number;
  /** Pieces shorter than this are not added; the others grow instead (default 2 s). */
  minPieceSeconds?: number;
}

/**
 * Chooses extracts best-score first (filler spread out, see rankForFill) until they add up to exactly `targetSeconds` (the last one
 * trimmed around its peak; when the candidates are too few or the remainder too short for a
 * clip, chosen extracts grow into neighbouring time), returned in time order.
 */
export function fillTarget(candidates: Extract[], options: FillOptions): Extract[] {
  const { targetSeconds = 60, durationSeconds, minPieceSeconds = 2 } = options;
  const target = Math.min(targetSeconds, durationSeconds);
  const ranked = rankForFill(mergeIntervals(candidates));
  const chosen: Extract[] = [];
  let total = 0;
  for (const candidate of ranked) {
    const remaining = target - total;
    if (remaining <= 1e-9) break;
    const length = candidate.endSeconds - candidate.startSeconds;
    if (length <= remaining) {
      chosen.push({ ...candidate });
      total += length;
    } else if (remaining >= minPieceSeconds) {
      chosen.push(trimAroundPeak(candidate, remaining));
      total = target;
    } else {
      break;
    }
  }
  const missing = target - totalSeconds(chosen);
  if (missing > 1e-9) {
    if (chosen.length === 0) {
      chosen.push({ startSeconds: 0, endSeconds: 0, score: 0, peakSeconds: 0 });
    }
    growIntoFreeTime(chosen, missing, durationSeconds);
  }
  return mergeIntervals(chosen);
}

export interface PlanOptions extends ScoringOptions {
  /** Length of the compilation (default 60 s). */
  targetSeconds?: number;
  /** Default 10 s. */
  minPeakDistanceSeconds?: number;
  /** Default 4 s. */
  minExtractSeconds?: number;
  /** Default 8 s. */
  maxExtractSeconds?: number;
}

export interface ExtractPlan {
  scores: number[];
  extracts: Extract[];
  shorterThanTarget: boolean;
}

/** Scores the seconds and chooses the compilation's extracts (pure; analyzeVideo's second half). */
export function planExtracts(track: FeatureTrack, options: PlanOptions = {}): ExtractPlan {
  const {
    targetSeconds = 60,
    minPeakDistanceSeconds = 10,
    minExtractSeconds = 4,
    maxExtractSeconds = 8,
  } = options;
  const { durationSeconds, perSecond } = track;
  const scores = scoreSeconds(perSecond, options);
  if (durationSeconds <= targetSeconds) {
    const best = pickPeaks(scores)[0] ?? { second: 0, score: 0 };
    return {
      scores,
      extracts:
        durationSeconds > 0
          ? [
              {
                startSeconds: 0,
                endSeconds: durationSeconds,
                score: best.score,
                peakSeconds: best.second,
              },
            ]
          : [],
      shorterThanTarget: durationSeconds < targetSeconds,
    };
  }
  const smoothed = smoothScores(scores);
  let eligible = perSecond.map((s) => !s.black && !s.frozen);
  // An all-black or all-frozen video still gets a compilation rather than none.
  if (!eligible.some(Boolean)) eligible = perSecond.map(() => true);
  const peaks = pickPeaks(smoothed, { minDistanceSeconds: minPeakDistanceSeconds, eligible });
  const silenceEnds = track.silences.map((s) => s.endSeconds);
  const silenceStarts = track.silences.map((s) => s.startSeconds);
  const candidates = peaks.map((peak) =>
    expandAndSnap(peak, scores, {
      durationSeconds,
      eligible,
      minSeconds: minExtractSeconds,
      maxSeconds: maxExtractSeconds,
      startSnapPoints: [...track.sceneCuts, ...silenceEnds],
      endSnapPoints: [...track.sceneCuts, ...silenceStarts],
    }),
  );
  return {
    scores,
    extracts: fillTarget(candidates, { targetSeconds, durationSeconds }),
    shorterThanTarget: false,
  };
}
