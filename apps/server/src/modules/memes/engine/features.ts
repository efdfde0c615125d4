import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { FfmpegOutputError, runFfmpegToFiles, runMediaTool } from '../../../media/ffmpeg.ts';
import { mediaInputArgs } from '../../../media/media-allow-list.ts';
import { metadataNumber, parseMetadataPrint } from './metadata-print.ts';
import type { MetadataFrame } from './metadata-print.ts';
import type { FeatureTrack, Interval, SecondFeatures } from './types.ts';

/**
 * The measuring half of the analysis: two ffmpeg passes, run in parallel, each decoding only what
 * it needs and writing per-frame metadata to a temporary file.
 * - video: 4 frames a second at 160 px wide (the decode is the cost, so the loop filter is skipped
 *   too: blocking artefacts do not matter at that size) → scene score and frame difference
 *   (scdet), brightness (signalstats);
 * - audio: mono 16 kHz in 0.25 s windows → RMS and peak (astats), silences (silencedetect).
 */

export const VIDEO_SAMPLE_FPS = 4;
const VIDEO_SAMPLE_WIDTH = 160;
const AUDIO_SAMPLE_RATE = 16_000;
const AUDIO_WINDOW_SECONDS = 0.25;
/** scdet scores above this are cuts; gentle camera moves stay under 1, hard cuts land at 10+. */
export const CUT_SCORE = 5;
/** 90th-percentile luma at or below this is black (limited range black is 16; blackdetect's 10 %). */
const BLACK_LUMA = 40;
/** Frame difference below this is 'the same picture' (scdet mafd, 0..100). */
const FROZEN_MAFD = 0.05;
const FROZEN_MIN_SECONDS = 2;
const BLACK_MIN_SECONDS = 1.5;
const SILENCE_DB = -50;
const SILENCE_MIN_SECONDS = 0.5;
const NO_AUDIO_DB = -100;

/**
 * Escapes a value for use as a filter option inside a filtergraph string: once for the option
 * parser (':' separates options) and once for the graph parser (',', ';', '[' and ']').
 */
export function escapeFilterValue(value: string): string {
  const forOption = value.replace(/[\\':]/g, (c) => `\\${c}`);
  return forOption.replace(/[\\'[\],;]/g, (c) => `\\${c}`);
}

/** ffmpeg arguments of the video pass (pure). */
export function buildVideoPassArgs(inputPath: string, metadataPath: string): string[] {
  const filters = [
    `fps=${VIDEO_SAMPLE_FPS}`,
    `scale=${VIDEO_SAMPLE_WIDTH}:-2:flags=fast_bilinear`,
    'signalstats',
    'scdet=t=100',
    `metadata=mode=print:file=${escapeFilterValue(metadataPath)}`,
  ];
  return [
    '-hide_banner',
    '-nostdin',
    '-v',
    'error',
    '-skip_loop_filter',
    'all',
    ...mediaInputArgs(inputPath),
    '-map',
    '0:v:0',
    '-vf',
    filters.join(','),
    '-f',
    'null',
    '-progress',
    'pipe:1',
    '-nostats',
    '-',
  ];
}

/** ffmpeg arguments of the audio pass (pure). */
export function buildAudioPassArgs(inputPath: string, metadataPath: string): string[] {
  const windowSamples = AUDIO_SAMPLE_RATE * AUDIO_WINDOW_SECONDS;
  const filters = [
    `aformat=sample_fmts=flt:sample_rates=${AUDIO_SAMPLE_RATE}:channel_layouts=mono`,
    `asetnsamples=n=${windowSamples}:p=0`,
    'astats=metadata=1:reset=1:measure_perchannel=none:measure_overall=RMS_level+Peak_level',
    `silencedetect=n=${SILENCE_DB}dB:d=${SILENCE_MIN_SECONDS}`,
    `ametadata=mode=print:file=${escapeFilterValue(metadataPath)}`,
  ];
  return [
    '-hide_banner',
    '-nostdin',
    '-v',
    'error',
    '-vn',
    '-sn',
    '-dn',
    ...mediaInputArgs(inputPath),
    '-map',
    '0:a:0',
    '-af',
    filters.join(','),
    '-f',
    'null',
    '-',
  ];
}

const secondCountOf = (durationSeconds: number) => Math.max(0, Math.ceil(durationSeconds - 1e-6));

interface AudioSeconds {
  rmsDb: number[];
  peakDb: number[];
  silences: Interval[];
}

/** Per-second RMS (energy mean of the windows) and peak, plus silences, from the audio pass (pure). */
export function audioFramesToSeconds(
  frames: MetadataFrame[],
  durationSeconds: number,
): AudioSeconds {
  const count = secondCountOf(durationSeconds);
  const energy = new Array<number>(count).fill(0);
  const windows = new Array<number>(count).fill(0);
  const peakDb = new Array<number>(count).fill(NO_AUDIO_DB);
  const silences: Interval[] = [];
  let openSilence: number | null = null;
  for (const frame of frames) {
    const second = Math.floor(frame.time);
    const rms = metadataNumber(frame, 'lavfi.astats.Overall.RMS_level', NO_AUDIO_DB);
    const peak = metadataNumber(frame, 'lavfi.astats.Overall.Peak_level', NO_AUDIO_DB);
    if (second >= 0 && second < count) {
      if (rms !== null) {
        energy[second] = (energy[second] ?? 0) + 10 ** (rms / 10);
        windows[second] = (windows[second] ?? 0) + 1;
      }
      if (peak !== null) peakDb[second] = Math.max(peakDb[second] ?? NO_AUDIO_DB, peak);
    }
    const start = metadataNumber(frame, 'lavfi.silence_start', 0);
    if (start !== null) openSilence = start;
    const end = metadataNumber(frame, 'lavfi.silence_end', 0);
    if (end !== null) {
      silences.push({ startSeconds: openSilence ?? 0, endSeconds: end });
      openSilence = null;
    }
  }
  // A silence running into the end of the file is never closed by silencedetect.
  if (openSilence !== null)
    silences.push({ startSeconds: openSilence, endSeconds: durationSeconds });
  const rmsDb = energy.map((sum, i) => {
    const n = windows[i] ?? 0;
    if (n === 0 || sum <= 0) return NO_AUDIO_DB;
    return Math.max(NO_AUDIO_DB, 10 * Math.log10(sum / n));
  });
  return { rmsDb, peakDb, silences };
}

interface VideoSeconds {
  motion: number[];
  cuts: number[];
  black: boolean[];
  frozen: boolean[];
  sceneCuts: number[];
}

function medianOf(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  if (sorted.length === 0) return 0;
  return sorted.length % 2 === 1
    ? (sorted[middle] ?? 0)
    : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}

/**
 * Flags the members of every run of consecutive true flags at least `minLength` long, plus the
 * `extendBack` entries before each such run.
 */
function markRuns(flags: boolean[], minLength: number, extendBack: number): boolean[] {
  const marked = new Array<boolean>(flags.length).fill(false);
  let runStart = 0;
  for (let i = 0; i <= flags.length; i += 1) {
    if (i < flags.length && flags[i]) continue;
    if (i - runStart >= minLength && i > runStart) {
      marked.fill(true, Math.max(0, runStart - extendBack), i);
    }
    runStart = i + 1;
  }
  return marked;
}

/**
 * Per-second motion (median frame difference, so one cut does not read as movement), cut count,
 * black and frozen flags, and the cut times, from the video pass (pure).
 */
export function videoFramesToSeconds(
  frames: MetadataFrame[],
  durationSeconds: number,
): VideoSeconds {
  const count = secondCountOf(durationSeconds);
  const differences: number[][] = Array.from({ length: count }, () => []);
  const cuts = new Array<number>(count).fill(0);
  const blackFrames = new Array<number>(count).fill(0);
  const frozenFrames = new Array<number>(count).fill(0);
  const framesPerSecond = new Array<number>(count).fill(0);
  const sceneCuts: number[] = [];

  // Frozen: the same picture for FROZEN_MIN_SECONDS. A still frame matches the one before it,
  // so the picture began one frame before the run of still frames.
  const inFrozenRun = markRuns(
    frames.map((frame) => {
      const mafd = metadataNumber(frame, 'lavfi.scd.mafd');
      return mafd !== null && mafd < FROZEN_MAFD;
    }),
    Math.round(FROZEN_MIN_SECONDS * VIDEO_SAMPLE_FPS) - 1,
    1,
  );
  // Black: like blackdetect, only a stretch counts, not a dark shot in a burst of cuts.
  const inBlackRun = markRuns(
    frames.map((frame) => {
      const high = metadataNumber(frame, 'lavfi.signalstats.YHIGH');
      return high !== null && high <= BLACK_LUMA;
    }),
    Math.round(BLACK_MIN_SECONDS * VIDEO_SAMPLE_FPS),
    0,
  );

  frames.forEach((frame, index) => {
    const second = Math.floor(frame.time);
    if (second < 0 || second >= count) return;
    framesPerSecond[second] = (framesPerSecond[second] ?? 0) + 1;
    const mafd = metadataNumber(frame, 'lavfi.scd.mafd');
    if (mafd !== null) differences[second]?.push(mafd);
    const score = metadataNumber(frame, 'lavfi.scd.score');
    if (score !== null && score > CUT_SCORE && index > 0) {
      cuts[second] = (cuts[second] ?? 0) + 1;
      sceneCuts.push(frame.time);
    }
    if (inBlackRun[index]) blackFrames[second] = (blackFrames[second] ?? 0) + 1;
    if (inFrozenRun[index]) frozenFrames[second] = (frozenFrames[second] ?? 0) + 1;
  });

  const majority = (hits: number[]) =>
    hits.map((n, i) => (framesPerSecond[i] ?? 0) > 0 && n / (framesPerSecond[i] ?? 1) >= 0.75);
  return {
    motion: differences.map(medianOf),
    cuts,
    black: majority(blackFrames),
    frozen: majority(frozenFrames),
    sceneCuts,
  };
}

const probeSchema = z.object({
  format: z.object({ duration: z.coerce.number().positive() }),
  streams: z.array(z.object({ codec_type: z.string() })),
});

export interface MediaBasics {
  durationSeconds: number;
  hasVideo: boolean;
  hasAudio: boolean;
}

/** Duration and which stream kinds a file holds (ffprobe). */
export async function probeMediaBasics(
  ffprobePath: string,
  inputPath: string,
  signal?: AbortSignal,
): Promise<MediaBasics> {
  const { stdout } = await runMediaTool(
    ffprobePath,
    [
      ...['-v', 'error', '-show_entries', 'format=duration:stream=codec_type', '-of', 'json'],
      ...mediaInputArgs(inputPath),
    ],
    { signal },
  );
  const parsed = probeSchema.parse(JSON.parse(stdout) as unknown);
  return {
    durationSeconds: parsed.format.duration,
    hasVideo: parsed.streams.some((s) => s.codec_type === 'video'),
    hasAudio: parsed.streams.some((s) => s.codec_type === 'audio'),
  };
}

export interface ExtractFeaturesParams {
  ffmpegPath: string;
  inputPath: string;
  durationSeconds: number;
  hasAudio: boolean;
  signal?: AbortSignal;
  /** Fraction 0..1 of the video pass (the slow one). */
  onProgress?: (fraction: number) => void;
  /** Where the temporary metadata files go (default os.tmpdir()). */
  tempDir?: string;
}

/** Runs both passes in parallel and assembles the per-second features (heat left null). */
export async function extractFeatures(params: ExtractFeaturesParams): Promise<FeatureTrack> {
  const { ffmpegPath, inputPath, durationSeconds, hasAudio, signal, onProgress } = params;
  const workDir = await mkdtemp(path.join(params.tempDir ?? os.tmpdir(), 'cadence-memes-'));
  try {
    const videoMetadata = path.join(workDir, 'video.txt');
    const audioMetadata = path.join(workDir, 'audio.txt');
    // One pass failing stops the other before the temporary files are removed.
    const passes = new AbortController();
    const abortPasses = () => passes.abort(signal?.reason);
    signal?.addEventListener('abort', abortPasses, { once: true });
    // No frame measured is no analysis: the video pass must leave its metadata.
    const videoPass = runFfmpegToFiles(
      ffmpegPath,
      buildVideoPassArgs(inputPath, videoMetadata),
      [videoMetadata],
      {
        signal: passes.signal,
        onProgressSeconds: (seconds) =>
          onProgress?.(Math.min(1, durationSeconds > 0 ? seconds / durationSeconds : 0)),
      },
    );
    // An audio track that decodes to nothing (an empty track some recorders write) is silence.
    const audioPass = hasAudio
      ? runFfmpegToFiles(
          ffmpegPath,
          buildAudioPassArgs(inputPath, audioMetadata),
          [audioMetadata],
          {
            signal: passes.signal,
          },
        ).then(
          () => true,
          (error: unknown) => {
            if (error instanceof FfmpegOutputError) return false;
            throw error;
          },
        )
      : Promise.resolve(false);
    const failures: unknown[] = [];
    const stopOthersOnFailure = (error: unknown) => {
      failures.push(error);
      passes.abort();
    };
    const [, audioMeasured] = await Promise.all([
      videoPass.catch(stopOthersOnFailure),
      audioPass.catch(stopOthersOnFailure),
    ]);
    signal?.removeEventListener('abort', abortPasses);
    signal?.throwIfAborted();
    if (failures.length > 0) throw failures[0];
    const video = videoFramesToSeconds(
      parseMetadataPrint(await readFile(videoMetadata, 'utf8')),
      durationSeconds,
    );
    const audio = audioMeasured
      ? audioFramesToSeconds(
          parseMetadataPrint(await readFile(audioMetadata, 'utf8')),
          durationSeconds,
        )
      : null;
    const perSecond: SecondFeatures[] = video.motion.map((motion, second) => {
      const silences = audio?.silences ?? [];
      const silentPart = silences.reduce(
        (sum, s) =>
          sum + Math.max(0, Math.min(s.endSeconds, second + 1) - Math.max(s.startSeconds, second)),
        0,
      );
      return {
        second,
        rmsDb: audio?.rmsDb[second] ?? NO_AUDIO_DB,
        peakDb: audio?.peakDb[second] ?? NO_AUDIO_DB,
        silent: audio ? silentPart > 0.5 : true,
        motion,
        cuts: video.cuts[second] ?? 0,
        black: video.black[second] ?? false,
        frozen: video.frozen[second] ?? false,
        heat: null,
      };
    });
    return {
      durationSeconds,
      hasAudio,
      perSecond,
      sceneCuts: video.sceneCuts,
      silences: audio?.silences ?? [],
    };
  } finally {
    await rm(workDir, { recursive: true, force: true });
  }
}
