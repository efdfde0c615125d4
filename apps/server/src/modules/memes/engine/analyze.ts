import { extractFeatures, probeMediaBasics } from './features.ts';
import { heatForSeconds, planExtracts } from './scoring.ts';
import type { PlanOptions } from './scoring.ts';
import type { Extract, HeatmapPoint, SecondFeatures } from './types.ts';

export interface AnalyzeVideoParams {
  ffmpegPath: string;
  ffprobePath: string;
  inputPath: string;
  /** YouTube's 'most replayed' buckets, when yt-dlp found them. */
  heatmap?: HeatmapPoint[] | null;
  signal?: AbortSignal;
  /** Fraction 0..1 of the analysis done. */
  onProgress?: (fraction: number) => void;
  /** Compilation length and clip sizes (defaults: 60 s, clips 4–8 s, peaks 10 s apart). */
  plan?: PlanOptions;
  tempDir?: string;
}

export interface VideoAnalysis {
  durationSeconds: number;
  hasAudio: boolean;
  perSecond: SecondFeatures[];
  /** Per-second score 0..1, aligned with perSecond. */
  scores: number[];
  /** Chosen extracts in time order; they add up to the target (60 s) unless shorterThanTarget. */
  extracts: Extract[];
  /** The video is shorter than the target: the single extract is the whole video. */
  shorterThanTarget: boolean;
}

export class VideoAnalysisError extends Error {
  constructor(
    message: string,
    readonly code: 'no_video_stream',
  ) {
    super(message);
    this.name = 'VideoAnalysisError';
  }
}

/** Measures a local video file and chooses the extracts of its one-minute compilation. */
export async function analyzeVideo(params: AnalyzeVideoParams): Promise<VideoAnalysis> {
  const { ffmpegPath, ffprobePath, inputPath, heatmap, signal, onProgress } = params;
  const basics = await probeMediaBasics(ffprobePath, inputPath, signal);
  if (!basics.hasVideo) {
    throw new VideoAnalysisError('The file has no video stream', 'no_video_stream');
  }
  const track = await extractFeatures({
    ffmpegPath,
    inputPath,
    durationSeconds: basics.durationSeconds,
    hasAudio: basics.hasAudio,
    signal,
    onProgress,
    tempDir: params.tempDir,
  });
  if (heatmap && heatmap.length > 0) {
    const heat = heatForSeconds(heatmap, track.perSecond.length);
    track.perSecond = track.perSecond.map((second, i) => ({ ...second, heat: heat[i] ?? null }));
  }
  const plan = planExtracts(track, params.plan);
  onProgress?.(1);
  return {
    durationSeconds: track.durationSeconds,
    hasAudio: track.hasAudio,
    perSecond: track.perSecond,
    scores: plan.scores,
    extracts: plan.extracts,
    shorterThanTarget: plan.shorterThanTarget,
  };
}
