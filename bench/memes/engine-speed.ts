import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { analyzeVideo } from '../../apps/server/src/modules/memes/engine/analyze.ts';
import {
  compileHighlights,
  extractThumbnails,
  type CompilationArgsParams,
} from '../../apps/server/src/modules/memes/engine/compile.ts';
import { generateSyntheticVideo, planSyntheticVideo } from './generate.ts';

/**
 * The speed video and the engine-only timing, shared by evaluate.ts (the speed figure) and
 * link-to-download.ts (the baseline its whole-server figure is compared with).
 */

export type CompilePreset = NonNullable<CompilationArgsParams['preset']>;

export interface SpeedVideo {
  videoPath: string;
  /**
   * 'full': the 10-minute 1280×720 video; 'short': a ~30 s one for smoke runs (shorter than the
   * one-minute target, so its compilation is the whole video, half the encoding work).
   */
  length: 'full' | 'short';
}

/**
 * The YouTube-like 1280×720 H.264 speed video in workDir (seed 7): about 600 s, or about 30 s
 * with one highlight for `length: 'short'`. Generated only when workDir has no complete copy
 * (the ground-truth JSON is written after the video, so its presence means the MP4 is whole).
 */
export async function ensureSpeedVideo(params: {
  ffmpegPath: string;
  workDir: string;
  length: SpeedVideo['length'];
}): Promise<SpeedVideo> {
  const { ffmpegPath, workDir, length } = params;
  const name = length === 'full' ? 'speed-720p' : 'speed-720p-30s';
  const videoPath = path.join(workDir, `${name}.mp4`);
  if (existsSync(videoPath) && existsSync(path.join(workDir, `${name}.json`))) {
    return { videoPath, length };
  }
  const plan =
    length === 'full'
      ? planSyntheticVideo({ seed: 7, targetSeconds: 600 })
      : planSyntheticVideo({ seed: 7, targetSeconds: 30, burstCount: 1, controls: false });
  console.log(
    length === 'full'
      ? '\nGenerating the 10-minute 1280x720 speed video (takes a few minutes)…'
      : '\nGenerating a ~30 s 1280x720 speed video…',
  );
  await mkdir(workDir, { recursive: true });
  await generateSyntheticVideo({
    ffmpegPath,
    outputDir: workDir,
    plan,
    name,
    // YouTube-like: H.264 with B-frames at ~2 Mbit/s, with grain so the bits are real work.
    encode: {
      preset: 'superfast',
      bitrate: '2M',
      grain: 4,
      scaleTo: { width: 1280, height: 720 },
    },
  });
  return { videoPath, length };
}

export type EngineStep = 'analysis' | 'thumbnails' | 'compilation';

export interface EngineTiming {
  durationSeconds: number;
  extractCount: number;
  analysisSeconds: number;
  thumbnailSeconds: number;
  compileSeconds: number;
  /** analysis + thumbnails + compilation. */
  totalSeconds: number;
}

/**
 * The engine alone on a local file, in the order the worker runs it: analysis, thumbnails, then
 * the 'crop' compilation of every extract. Outputs go to workDir.
 */
export async function measureEngine(params: {
  ffmpegPath: string;
  ffprobePath: string;
  videoPath: string;
  workDir: string;
  /** Default: compile.ts's own default. */
  preset?: CompilePreset;
  /** Awaited at the start and after each step, e.g. to sample what else the machine was doing. */
  mark?: (edge: 'start' | EngineStep) => Promise<void>;
}): Promise<EngineTiming> {
  const { ffmpegPath, ffprobePath, videoPath, workDir, preset, mark } = params;
  const stem = path.basename(videoPath, path.extname(videoPath));
  await mark?.('start');
  const analysisStart = performance.now();
  const analysis = await analyzeVideo({ ffmpegPath, ffprobePath, inputPath: videoPath });
  const analysisSeconds = (performance.now() - analysisStart) / 1000;
  await mark?.('analysis');
  const thumbStart = performance.now();
  await extractThumbnails({
    ffmpegPath,
    inputPath: videoPath,
    extracts: analysis.extracts,
    outputDir: workDir,
    prefix: `${stem}-thumb-`,
  });
  const thumbnailSeconds = (performance.now() - thumbStart) / 1000;
  await mark?.('thumbnails');
  const compileStart = performance.now();
  await compileHighlights({
    ffmpegPath,
    inputPath: videoPath,
    extracts: analysis.extracts,
    layout: 'crop',
    hasAudio: analysis.hasAudio,
    outputPath: path.join(workDir, `${stem}-compilation.mp4`),
    ...(preset && { preset }),
  });
  const compileSeconds = (performance.now() - compileStart) / 1000;
  await mark?.('compilation');
  return {
    durationSeconds: analysis.durationSeconds,
    extractCount: analysis.extracts.length,
    analysisSeconds,
    thumbnailSeconds,
    compileSeconds,
    totalSeconds: analysisSeconds + thumbnailSeconds + compileSeconds,
  };
}
