import { createHash, randomBytes } from 'node:crypto';
import { copyFile, mkdir, mkdtemp, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { extname, join } from 'node:path';
import { runMediaTool } from '../media/ffmpeg.ts';
import type { FfmpegBinaries } from '../media/ffmpeg.ts';
import type { ProbedVideo } from '../media/probe.ts';
import {
  buildSyntheticVideoArgs,
  planSyntheticVideo,
  type SyntheticPlan,
} from '../../../../bench/memes/generate.ts';

/**
 * Small media generators for tests: every file is made on the fly with ffmpeg's lavfi sources, so
 * the repository carries no binary fixtures and each test states the exact shape it exercises.
 */

/** Tests resolve the binaries from PATH (Debian's ffmpeg in CI); production paths come from config.ts. */
export const testBinaries: FfmpegBinaries = { ffmpeg: 'ffmpeg', ffprobe: 'ffprobe' };

/** A solid colour, optionally with a full-height stripe on the left and a colour change over time. */
export interface SolidSource {
  color: string;
  /** A stripe covering the left `widthFraction` of the coded picture, to check orientation and cropping. */
  stripe?: { color: string; widthFraction: number };
  /** From `atSeconds` on, the whole picture turns this colour (to tell looping from a frozen frame). */
  switchTo?: { color: string; atSeconds: number };
}

export interface FixtureVideoOptions {
  /** Coded size (default 320×240). Odd sizes (e.g. 721×405) are allowed: they use 4:4:4 chroma. */
  width?: number;
  height?: number;
  /** Default 2 s. */
  durationSeconds?: number;
  /** Default 30. */
  fps?: number;
  /** 'testsrc' (default), 'testsrc2', 'mandelbrot', or a solid colour such as 'red' / '0x00ff00'. */
  source?: 'testsrc' | 'testsrc2' | 'mandelbrot' | SolidSource;
  /** A 440 Hz sine track (48 kHz stereo AAC, Opus in WebM). Default false. */
  audio?: boolean;
  /**
   * Display-matrix rotation as ffprobe reports it (counter-clockwise degrees): 90, 180 or -90.
   * Written by remuxing with the `rotate` tag, which ffmpeg 5.1 turns into a display matrix.
   */
  displayMatrixRotation?: 90 | 180 | -90;
  /** Sample aspect ratio, e.g. '4/3' (anamorphic) — the coded size stays as given. */
  sar?: string;
  /** Drop every third frame after the first second, keeping timestamps: variable frame rate. */
  vfr?: boolean;
  /** 10-bit yuv420p10le (libx264 High 10, or libx265 for hevc). */
  tenBit?: boolean;
  /** Tag the stream as HDR (BT.2020 primaries and matrix, PQ or HLG transfer). Implies nothing about bit depth. */
  hdr?: 'pq' | 'hlg';
  /** Default 'h264'. */
  codec?: 'h264' | 'hevc' | 'vp9' | 'mpeg4';
}

function sourceFilter(options: FixtureVideoOptions, width: number, height: number): string {
  const fps = options.fps ?? 30;
  const duration = options.durationSeconds ?? 2;
  const source = options.source ?? 'testsrc';
  const common = `size=${width}x${height}:rate=${fps}`;
  if (typeof source === 'object') {
    const filters = [`color=c=${source.color}:${common}:duration=${duration}`];
    if (source.stripe) {
      const stripeWidth = Math.max(1, Math.round(width * source.stripe.widthFraction));
      filters.push(`drawbox=x=0:y=0:w=${stripeWidth}:h=ih:color=${source.stripe.color}:t=fill`);
    }
    if (source.switchTo) {
      filters.push(
        `drawbox=x=0:y=0:w=iw:h=ih:color=${source.switchTo.color}:t=fill` +
          `:enable='gte(t,${source.switchTo.atSeconds})'`,
      );
    }
    return filters.join(',');
  }
  // mandelbrot has no duration option: the output's -t bounds it.
  if (source === 'mandelbrot') return `mandelbrot=${common}`;
  return `${source}=${common}:duration=${duration}`;
}

function videoCodecArgs(options: FixtureVideoOptions, oddSize: boolean): string[] {
  const codec = options.codec ?? 'h264';
  // Odd dimensions cannot be 4:2:0-subsampled by libx264; 4:4:4 keeps them exactly as asked.
  const pixelFormat = options.tenBit
    ? oddSize
      ? 'yuv444p10le'
      : 'yuv420p10le'
    : oddSize
      ? 'yuv444p'
      : 'yuv420p';
  switch (codec) {
    case 'h264':
      return ['-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', pixelFormat];
    case 'hevc':
      return [
        '-c:v',
        'libx265',
        '-preset',
        'ultrafast',
        '-x265-params',
        'log-level=error',
        '-pix_fmt',
        pixelFormat,
        '-tag:v',
        'hvc1',
      ];
    case 'vp9':
      return [
        '-c:v',
        'libvpx-vp9',
        '-deadline',
        'realtime',
        '-cpu-used',
        '8',
        '-pix_fmt',
        pixelFormat,
      ];
    case 'mpeg4':
      return ['-c:v', 'mpeg4', '-pix_fmt', 'yuv420p'];
  }
}

/**
 * Generates a small video at `outputPath` (container from the extension: .mp4, .mov, .webm, .mkv,
 * .avi) and resolves with that path.
 */
export async function makeVideo(
  outputPath: string,
  options: FixtureVideoOptions = {},
  ffmpegPath: string = testBinaries.ffmpeg,
): Promise<string> {
  // Another ffmpeg (a test's stand-in) makes its own file every time.
  if (ffmpegPath !== testBinaries.ffmpeg) return encodeVideo(outputPath, options, ffmpegPath);
  // The same options give the same file: it is encoded once per machine and copied after that
  // (the server suite runs twice, and many files make the same small clip).
  return fromFixtureCache(outputPath, options, () => encodeVideo(outputPath, options, ffmpegPath));
}

/**
 * The file `make` writes at `outputPath`, made once per machine for the same `key` (anything
 * JSON: what decides the file's bytes) and extension, and copied from the cache after that.
 * Only for files made deterministically by the test ffmpeg.
 */
export async function fromFixtureCache(
  outputPath: string,
  key: unknown,
  make: () => Promise<unknown>,
): Promise<string> {
  const extension = extname(outputPath);
  const hash = createHash('sha256')
    .update(JSON.stringify([FIXTURE_CACHE_VERSION, key, extension]))
    .digest('hex')
    .slice(0, 20);
  const cached = join(fixtureCacheDir, `${hash}${extension}`);
  try {
    await copyFile(cached, outputPath);
    return outputPath;
  } catch {
    // Not made yet on this machine.
  }
  await make();
  await mkdir(fixtureCacheDir, { recursive: true });
  // Two workers may make the same file at once: each copies to its own name, then renames.
  const staging = `${cached}.${process.pid}.${randomBytes(4).toString('hex')}`;
  await copyFile(outputPath, staging);
  await rename(staging, cached);
  return outputPath;
}

/**
 * The seeded meme source the engine's test and the API's test both analyse (bench/memes/generate.ts:
 * ~80 s, three loud bursts among calm stretches, 320×180 with sound). One plan for both, so that
 * it is rendered once per machine (`makeSyntheticVideo`) instead of once per file and database.
 */
export function burstsPlan(): SyntheticPlan {
  return planSyntheticVideo({ seed: 42, targetSeconds: 90, burstCount: 3, controls: false });
}

/**
 * `plan` rendered at `outputPath` (.mp4) as bench/memes/generate.ts renders it, once per machine:
 * the cache is keyed by the exact ffmpeg arguments.
 */
export async function makeSyntheticVideo(outputPath: string, plan: SyntheticPlan): Promise<string> {
  return fromFixtureCache(
    outputPath,
    ['synthetic', buildSyntheticVideoArgs(plan, 'synthetic.mp4')],
    () => runMediaTool(testBinaries.ffmpeg, buildSyntheticVideoArgs(plan, outputPath)),
  );
}

/** Where fromFixtureCache keeps the files made; bump the version when encodeVideo changes. */
const fixtureCacheDir = join(tmpdir(), 'cadence-video-fixtures');
const FIXTURE_CACHE_VERSION = 1;

async function encodeVideo(
  outputPath: string,
  options: FixtureVideoOptions,
  ffmpegPath: string,
): Promise<string> {
  const width = options.width ?? 320;
  const height = options.height ?? 240;
  const duration = options.durationSeconds ?? 2;
  const oddSize = width % 2 === 1 || height % 2 === 1;
  const filters: string[] = [];
  if (options.sar) filters.push(`setsar=${options.sar}`);
  // Keep the first second intact so the average frame rate stays in a plausible range.
  if (options.vfr) filters.push(String.raw`select='lt(n\,30)+mod(n\,3)'`);
  const isWebm = outputPath.endsWith('.webm');
  const args = ['-hide_banner', '-loglevel', 'error', '-y'];
  args.push('-f', 'lavfi', '-i', sourceFilter(options, width, height));
  if (options.audio) {
    args.push('-f', 'lavfi', '-i', `sine=frequency=440:sample_rate=48000:duration=${duration}`);
  }
  if (filters.length > 0) args.push('-vf', filters.join(','));
  if (options.vfr) args.push('-fps_mode', 'vfr');
  args.push(...videoCodecArgs(options, oddSize));
  if (options.hdr) {
    args.push(
      '-color_primaries',
      'bt2020',
      '-colorspace',
      'bt2020nc',
      '-color_trc',
      options.hdr === 'pq' ? 'smpte2084' : 'arib-std-b67',
    );
  }
  if (options.audio) {
    args.push('-ac', '2', ...(isWebm ? ['-c:a', 'libopus'] : ['-c:a', 'aac', '-b:a', '64k']));
  }
  args.push('-t', String(duration));
  if (!options.displayMatrixRotation) {
    await runMediaTool(ffmpegPath, [...args, outputPath]);
    return outputPath;
  }
  // ffmpeg 5.1 only turns the `rotate` tag into a display matrix when stream-copying.
  const unrotated = `${outputPath}.unrotated${outputPath.slice(outputPath.lastIndexOf('.'))}`;
  await runMediaTool(ffmpegPath, [...args, unrotated]);
  const tag = (options.displayMatrixRotation + 360) % 360;
  try {
    await runMediaTool(ffmpegPath, [
      '-hide_banner',
      '-loglevel',
      'error',
      '-y',
      '-i',
      unrotated,
      '-c',
      'copy',
      '-metadata:s:v',
      `rotate=${tag}`,
      outputPath,
    ]);
  } finally {
    await rm(unrotated, { force: true });
  }
  return outputPath;
}

/** An audio-only file (M4A/AAC by default): a container ffprobe reads, but with no video stream. */
export async function makeAudioOnly(
  outputPath: string,
  durationSeconds = 1,
  ffmpegPath: string = testBinaries.ffmpeg,
): Promise<string> {
  await runMediaTool(ffmpegPath, [
    '-hide_banner',
    '-loglevel',
    'error',
    '-y',
    '-f',
    'lavfi',
    '-i',
    `sine=frequency=440:sample_rate=48000:duration=${durationSeconds}`,
    '-c:a',
    'aac',
    outputPath,
  ]);
  return outputPath;
}

/** A file that is not media at all (a text file with a video's extension, as users do). */
export async function makeNotAVideo(outputPath: string): Promise<string> {
  await writeFile(outputPath, 'this is not a video\n'.repeat(100));
  return outputPath;
}

/** Runs `fn` with a fresh directory under os.tmpdir(), removed afterwards whatever happens. */
export async function withTempDir<TResult>(
  fn: (dir: string) => Promise<TResult>,
  prefix = 'cadence-media-',
): Promise<TResult> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  try {
    return await fn(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** A temp directory for a `describe` block: call `cleanup` in afterAll. */
export async function createTempDir(
  prefix = 'cadence-media-',
): Promise<{ dir: string; cleanup: () => Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  return { dir, cleanup: () => rm(dir, { recursive: true, force: true }) };
}

/**
 * Decodes one frame at `atSeconds` as raw RGB24 and returns a reader for pixel colours, so tests
 * can check what a viewer would see at a given position.
 */
export async function readFrameRgb(
  inputPath: string,
  atSeconds: number,
  size: { width: number; height: number },
  ffmpegPath: string = testBinaries.ffmpeg,
): Promise<{ pixel: (x: number, y: number) => [number, number, number] }> {
  const dir = await mkdtemp(join(tmpdir(), 'cadence-frame-'));
  try {
    const raw = join(dir, 'frame.rgb');
    await runMediaTool(ffmpegPath, [
      '-hide_banner',
      '-loglevel',
      'error',
      '-y',
      '-ss',
      String(atSeconds),
      '-i',
      inputPath,
      '-frames:v',
      '1',
      '-f',
      'rawvideo',
      '-pix_fmt',
      'rgb24',
      raw,
    ]);
    const bytes = await readFile(raw);
    if (bytes.length !== size.width * size.height * 3) {
      throw new Error(`frame has ${bytes.length} bytes, expected ${size.width}×${size.height}×3`);
    }
    return {
      pixel: (x, y) => {
        const offset = (y * size.width + x) * 3;
        return [bytes[offset] ?? 0, bytes[offset + 1] ?? 0, bytes[offset + 2] ?? 0];
      },
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * What ffprobe would say of a 5 s portrait H.264 MP4 that TikTok accepts, for tests and benchmarks
 * that store placeholder bytes as media (the sandbox takes any bytes; scheduling checks the probe).
 */
export function postableProbe(sizeBytes: number): ProbedVideo {
  return {
    container: 'mov,mp4,m4a,3gp,3g2,mj2',
    videoCodec: 'h264',
    width: 1080,
    height: 1920,
    displayWidth: 1080,
    displayHeight: 1920,
    rotation: 0,
    sampleAspectRatio: 1,
    fps: 30,
    pixelFormat: 'yuv420p',
    bitDepth: 8,
    durationSeconds: 5,
    sizeBytes,
    hasAudio: false,
    audioCodec: null,
    colorTransfer: null,
  };
}
