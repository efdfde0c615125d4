import path from 'node:path';
import { runFfmpegToFiles } from '../../../media/ffmpeg.ts';
import { mediaInputArgs } from '../../../media/media-allow-list.ts';
import { grabFrames } from '../../../media/thumbnails.ts';
import type { X264Preset } from '../../../media/x264.ts';
import type { Extract, Interval } from './types.ts';

/**
 * The compilation: the chosen extracts, each faded in and out, made vertical (1080×1920, 30 fps,
 * H.264 yuv420p + AAC, faststart) and joined into one MP4 of exactly their total length.
 *
 * Each extract is its own input (`-ss … -t … -i`), so ffmpeg seeks to it instead of decoding the
 * whole source once per extract.
 */

export type CompilationLayout = 'crop' | 'blur';

export const OUTPUT_WIDTH = 1080;
export const OUTPUT_HEIGHT = 1920;
export const OUTPUT_FPS = 30;
const AUDIO_RATE = 48_000;

export interface CompilationArgsParams {
  inputPath: string;
  extracts: Interval[];
  /** 'crop': centre 9:16 crop; 'blur': the whole frame over a blurred, zoomed copy of itself. */
  layout: CompilationLayout;
  /** Fade in and out at each extract's edges (default 0.25 s). */
  fadeSeconds?: number;
  /** Without an audio track the compilation gets a silent one: players and TikTok expect audio. */
  hasAudio: boolean;
  outputPath: string;
  /** x264 preset (default 'veryfast'); tests use 'ultrafast'. */
  preset?: X264Preset;
}

/**
 * Frame-exact piece lengths: rounding the running total (not each piece) keeps the sum equal to
 * the rounded total, so the compilation is 60.000 s rather than 60 s ± a frame per extract.
 */
export function frameExactLengths(extracts: Interval[], fps = OUTPUT_FPS): number[] {
  let cumulative = 0;
  let previousFrames = 0;
  return extracts.map((extract) => {
    cumulative += Math.max(0, extract.endSeconds - extract.startSeconds);
    const frames = Math.round(cumulative * fps);
    const length = (frames - previousFrames) / fps;
    previousFrames = frames;
    return length;
  });
}

function layoutFilter(layout: CompilationLayout, label: string): string {
  const cover = `scale=${OUTPUT_WIDTH}:${OUTPUT_HEIGHT}:force_original_aspect_ratio=increase,crop=${OUTPUT_WIDTH}:${OUTPUT_HEIGHT}`;
  if (layout === 'crop') return `${cover},setsar=1`;
  // Blur a quarter-size copy, then enlarge it: the same look as blurring at full size, far cheaper.
  const w = OUTPUT_WIDTH / 4;
  const h = OUTPUT_HEIGHT / 4;
  return (
    `split[${label}fg][${label}bg];` +
    `[${label}bg]scale=${w}:${h}:force_original_aspect_ratio=increase,crop=${w}:${h},` +
    `boxblur=luma_radius=12:luma_power=2,scale=${OUTPUT_WIDTH}:${OUTPUT_HEIGHT},setsar=1[${label}blur];` +
    `[${label}fg]scale=${OUTPUT_WIDTH}:${OUTPUT_HEIGHT}:force_original_aspect_ratio=decrease,setsar=1[${label}fit];` +
    `[${label}blur][${label}fit]overlay=x=(W-w)/2:y=(H-h)/2`
  );
}

const seconds = (value: number) => value.toFixed(6);

/** The ffmpeg arguments of a compilation (pure). */
export function buildCompilationArgs(params: CompilationArgsParams): string[] {
  const { inputPath, extracts, layout, fadeSeconds = 0.25, hasAudio, outputPath } = params;
  const preset = params.preset ?? 'veryfast';
  if (extracts.length === 0) throw new RangeError('A compilation needs at least one extract');
  const lengths = frameExactLengths(extracts);
  const total = lengths.reduce((sum, length) => sum + length, 0);
  const inputs: string[] = [];
  const chains: string[] = [];
  extracts.forEach((extract, i) => {
    const length = lengths[i] ?? 0;
    // Read a little past the end: the trim below, not the demuxer, decides the exact length.
    inputs.push(
      ...['-ss', seconds(extract.startSeconds), '-t', seconds(length + 0.5)],
      ...mediaInputArgs(inputPath),
    );
    const fade = length >= 2 * fadeSeconds && fadeSeconds > 0 ? fadeSeconds : 0;
    const videoFades =
      fade > 0 ? `,fade=t=in:st=0:d=${fade},fade=t=out:st=${seconds(length - fade)}:d=${fade}` : '';
    chains.push(
      `[${i}:v:0]setpts=PTS-STARTPTS,${layoutFilter(layout, `l${i}`)},fps=${OUTPUT_FPS},format=yuv420p,` +
        // A source that ends early still yields a full-length piece (last frame held).
        `tpad=stop_mode=clone:stop_duration=1,trim=duration=${seconds(length)},setpts=PTS-STARTPTS${videoFades}[v${i}]`,
    );
    const audioSource = hasAudio
      ? `[${i}:a:0]asetpts=PTS-STARTPTS,aformat=sample_fmts=fltp:sample_rates=${AUDIO_RATE}:channel_layouts=stereo,`
      : `anullsrc=r=${AUDIO_RATE}:cl=stereo,`;
    const audioFades =
      fade > 0
        ? `,afade=t=in:st=0:d=${fade},afade=t=out:st=${seconds(length - fade)}:d=${fade}`
        : '';
    chains.push(
      `${audioSource}apad=whole_dur=${seconds(length)},atrim=duration=${seconds(length)},asetpts=PTS-STARTPTS${audioFades}[a${i}]`,
    );
  });
  const pairs = extracts.map((_, i) => `[v${i}][a${i}]`).join('');
  chains.push(`${pairs}concat=n=${extracts.length}:v=1:a=1[vout][aout]`);
  return [
    '-hide_banner',
    '-nostdin',
    '-y',
    ...inputs,
    '-filter_complex',
    chains.join(';'),
    '-map',
    '[vout]',
    '-map',
    '[aout]',
    '-t',
    seconds(total),
    '-c:v',
    'libx264',
    '-preset',
    preset,
    '-crf',
    '21',
    '-profile:v',
    'high',
    '-pix_fmt',
    'yuv420p',
    '-r',
    String(OUTPUT_FPS),
    '-g',
    String(OUTPUT_FPS * 2),
    '-c:a',
    'aac',
    '-b:a',
    '128k',
    '-ar',
    String(AUDIO_RATE),
    '-ac',
    '2',
    '-movflags',
    '+faststart',
    '-progress',
    'pipe:1',
    '-nostats',
    outputPath,
  ];
}

export interface CompileHighlightsParams extends CompilationArgsParams {
  ffmpegPath: string;
  signal?: AbortSignal;
  /** Fraction 0..1 of the compilation written. */
  onProgress?: (fraction: number) => void;
}

/** Renders the compilation; resolves with its path and length in seconds. */
export async function compileHighlights(
  params: CompileHighlightsParams,
): Promise<{ outputPath: string; durationSeconds: number }> {
  const { ffmpegPath, signal, onProgress, ...args } = params;
  const total = frameExactLengths(args.extracts).reduce((sum, length) => sum + length, 0);
  await runFfmpegToFiles(ffmpegPath, buildCompilationArgs(args), [args.outputPath], {
    signal,
    onProgressSeconds: (done) => onProgress?.(Math.min(1, total > 0 ? done / total : 0)),
  });
  onProgress?.(1);
  return { outputPath: args.outputPath, durationSeconds: total };
}

export interface ThumbnailParams {
  inputPath: string;
  extracts: Extract[];
  outputDir: string;
  /** Width of the JPEGs (default 320; height follows the video's aspect ratio). */
  width?: number;
  /** File names are `${prefix}${index}.jpg` (default 'extract-'). */
  prefix?: string;
}

/** Where each extract's thumbnail is taken: its peak second, kept inside the extract. */
export function thumbnailTime(extract: Extract): number {
  const middleOfPeak = extract.peakSeconds + 0.5;
  const last = Math.max(extract.startSeconds, extract.endSeconds - 0.1);
  return Math.min(Math.max(middleOfPeak, extract.startSeconds), last);
}

/** Where each extract's thumbnail goes, in extract order (pure). */
export function thumbnailPaths(params: ThumbnailParams): string[] {
  const { extracts, outputDir, prefix = 'extract-' } = params;
  return extracts.map((_, i) => path.join(outputDir, `${prefix}${i}.jpg`));
}

/**
 * Writes a small JPEG at each extract's peak; resolves with their paths, in extract order, null
 * where no frame could be decoded (the list shows a placeholder). Every frame is checked for where
 * it was taken (media/thumbnails.ts): seeking is not exact in every container.
 */
export async function extractThumbnails(
  params: ThumbnailParams & { ffmpegPath: string; signal?: AbortSignal },
): Promise<(string | null)[]> {
  const paths = thumbnailPaths(params);
  const found = await grabFrames(
    params.ffmpegPath,
    params.inputPath,
    params.extracts.map((extract, i) => ({
      atSeconds: thumbnailTime(extract),
      outputJpegPath: paths[i] ?? '',
    })),
    { width: params.width ?? 320, quality: 4, signal: params.signal },
  );
  return paths.map((file, i) => (found[i] === null ? null : file));
}
