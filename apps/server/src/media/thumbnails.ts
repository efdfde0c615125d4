import { readFile, rm, stat } from 'node:fs/promises';
import { FfmpegOutputError, runFfmpegToFiles, runMediaTool } from './ffmpeg.ts';
import { mediaInputArgs, type AllowedDemuxer } from './media-allow-list.ts';
import { MediaProbeError } from './probe.ts';

/**
 * One JPEG frame of a video, taken where it was asked for, whatever the container.
 *
 * Positions are seconds from the file's start time (what the probe calls startTimeSeconds): ffmpeg's
 * input `-ss` counts from there, and so do the frame timestamps the filters see. A fast seek is
 * exact only where the container has an index (MP4, WebM/Matroska with cues, AVI with idx1): in an
 * MPEG-TS it lands wherever the byte-position estimate puts it, often after the keyframe it needs,
 * and ffmpeg then writes a frame seconds late, or none at all while still exiting 0. So every
 * attempt prints the timestamp of the frame it wrote, and a frame too far from the target is
 * refused: grabFrame's next attempt seeks earlier and decodes up to the target; grabFrames (many
 * frames of one file) does one seeking run for all, then one decode from the start for the rest.
 */

export interface GrabFrameOptions {
  /** Seconds from the start of the file. */
  atSeconds: number;
  /** Output width in pixels (height follows the display aspect ratio). Default 320. */
  width?: number;
  /** JPEG quality scale of ffmpeg's -q:v, 2 (best) to 31. Default 3. */
  quality?: number;
  /** The demuxer the probe found, so ffmpeg does not sniff the file again. */
  demuxer?: AllowedDemuxer | null;
  signal?: AbortSignal;
}

/** How far after the target the written frame may be (a frame, or a long one of a slideshow). */
const FRAME_TOLERANCE_SECONDS = 0.5;
/** Decoded before the target when a direct seek missed: longer than any usual GOP. */
const PREROLL_SECONDS = 30;

/** Where each attempt seeks before decoding up to the target (pure). */
export function seekAttempts(atSeconds: number): number[] {
  const target = Math.max(0, atSeconds);
  const attempts = [target, Math.max(0, target - PREROLL_SECONDS), 0];
  return attempts.filter((seek, index) => attempts.indexOf(seek) === index);
}

/** ffmpeg arguments of one attempt: seek to `seekSeconds`, keep the first frame at the target (pure). */
export function buildFrameGrabArgs(params: {
  inputPath: string;
  outputJpegPath: string;
  timestampsPath: string;
  seekSeconds: number;
  atSeconds: number;
  width: number;
  quality: number;
  demuxer?: AllowedDemuxer | null;
}): string[] {
  const { seekSeconds, atSeconds } = params;
  // Filter timestamps count from the seek point (no -copyts), so the target is relative to it.
  const trimStart = Math.max(0, atSeconds - seekSeconds);
  const filters = [
    `trim=start=${trimStart.toFixed(6)}`,
    // Square pixels before scaling; -2 keeps the height even, as the JPEG's 4:2:0 needs.
    `scale=iw*sar:ih,setsar=1,scale=${params.width}:-2`,
    // A key to print, so the metadata filter writes the frame's timestamp to the sidecar file.
    'metadata=mode=add:key=cadence.frame:value=1',
    `metadata=mode=print:file=${escapeFilterPath(params.timestampsPath)}`,
  ];
  return [
    ...['-hide_banner', '-nostdin', '-loglevel', 'error', '-y'],
    ...(seekSeconds > 0 ? ['-ss', seekSeconds.toFixed(6)] : []),
    ...mediaInputArgs(params.inputPath, params.demuxer),
    ...['-map', '0:v:0', '-frames:v', '1', '-vf', filters.join(',')],
    ...['-q:v', String(params.quality), '-update', '1', params.outputJpegPath],
  ];
}

/** Escapes a path for a filter option inside a filtergraph string (option, then graph level). */
function escapeFilterPath(value: string): string {
  const forOption = value.replace(/[\\':]/g, (c) => `\\${c}`);
  return forOption.replace(/[\\'[\],;]/g, (c) => `\\${c}`);
}

/** The timestamp of the first frame the metadata filter printed ("frame:0 pts:… pts_time:1.5"). */
export function printedFrameSeconds(printed: string): number | null {
  const match = /pts_time:(-?\d+(?:\.\d+)?)/.exec(printed);
  return match?.[1] ? Number(match[1]) : null;
}

/**
 * Writes the frame at `atSeconds` (or the first one after it, within half a second) to
 * `outputJpegPath`, upright and with square pixels; resolves with where that frame is. When no
 * attempt finds a frame there (the position is past the last frame), takes the first frame of the
 * video. Rejects with MediaProbeError('not_a_video') when no frame at all can be decoded.
 */
export async function grabFrame(
  ffmpegPath: string,
  inputPath: string,
  outputJpegPath: string,
  options: GrabFrameOptions,
): Promise<{ atSeconds: number }> {
  const { width = 320, quality = 3, demuxer, signal } = options;
  const target = Math.max(0, options.atSeconds);
  const timestampsPath = timestampsPathOf(outputJpegPath);
  const attempt = async (seekSeconds: number, atSeconds: number): Promise<number | null> => {
    await rm(timestampsPath, { force: true });
    try {
      await runFfmpegToFiles(
        ffmpegPath,
        buildFrameGrabArgs({
          ...{ inputPath, outputJpegPath, timestampsPath, seekSeconds, atSeconds },
          ...{ width, quality, demuxer },
        }),
        [outputJpegPath, timestampsPath],
        { signal },
      );
    } catch (error) {
      if (error instanceof FfmpegOutputError) return null;
      throw error;
    }
    const printed = printedFrameSeconds(await readFile(timestampsPath, 'utf8'));
    return printed === null ? null : seekSeconds + printed;
  };
  try {
    for (const seekSeconds of seekAttempts(target)) {
      signal?.throwIfAborted();
      const at = await attempt(seekSeconds, target);
      if (at !== null && at <= target + FRAME_TOLERANCE_SECONDS) return { atSeconds: at };
    }
    // Nothing at or after the target: the position is past the end of the picture.
    if (target > 0) {
      const first = await attempt(0, 0);
      if (first !== null) return { atSeconds: first };
    }
  } catch (error) {
    await rm(outputJpegPath, { force: true });
    throw error;
  } finally {
    await rm(timestampsPath, { force: true });
  }
  await rm(outputJpegPath, { force: true });
  throw new MediaProbeError('not_a_video', 'no frame could be decoded for the thumbnail');
}

/** One frame wanted by grabFrames. */
export interface FrameRequest {
  atSeconds: number;
  outputJpegPath: string;
}

/** What both frame-grab argument builders take: the frames wanted, their width and JPEG quality. */
export interface FrameGrabParams {
  inputPath: string;
  requests: readonly FrameRequest[];
  width: number;
  quality: number;
  demuxer?: AllowedDemuxer | null;
}

/**
 * ffmpeg arguments writing one frame per request in a single run: one seeking input and one
 * JPEG output each, every frame's timestamp printed beside it (pure).
 */
export function buildBatchFrameGrabArgs(params: FrameGrabParams): string[] {
  const { inputPath, requests, width, quality, demuxer } = params;
  const inputs = requests.flatMap((request) => [
    ...(request.atSeconds > 0 ? ['-ss', Math.max(0, request.atSeconds).toFixed(6)] : []),
    ...mediaInputArgs(inputPath, demuxer),
  ]);
  const chains = requests.map((request, i) => `[${i}:v:0]${frameChainTail(request, i, width)}`);
  return [
    ...['-hide_banner', '-nostdin', '-loglevel', 'error', '-y'],
    ...inputs,
    ...['-filter_complex', chains.join(';')],
    ...frameOutputs(requests, quality),
  ];
}

const timestampsPathOf = (outputJpegPath: string) => `${outputJpegPath}.frame.txt`;

/** The end of request `index`'s filter chain: square pixels, `width` wide, its timestamp printed. */
const frameChainTail = (request: FrameRequest, index: number, width: number) =>
  `scale=iw*sar:ih,setsar=1,scale=${width}:-2,` +
  'metadata=mode=add:key=cadence.frame:value=1,' +
  `metadata=mode=print:file=${escapeFilterPath(timestampsPathOf(request.outputJpegPath))}[v${index}]`;

/** One JPEG output per request, from its chain's label. */
const frameOutputs = (requests: readonly FrameRequest[], quality: number) =>
  requests.flatMap((request, index) => [
    ...['-map', `[v${index}]`, '-frames:v', '1', '-q:v', String(quality), '-update', '1'],
    request.outputJpegPath,
  ]);

/**
 * ffmpeg arguments writing one frame per request from a single decode of the file from its start,
 * no seeking: each branch keeps the first frame at or after its position (pure). What the batch's
 * seeks missed costs one decode up to the last position, however many frames.
 */
export function buildSequentialFrameGrabArgs(params: FrameGrabParams): string[] {
  const { inputPath, requests, width, quality, demuxer } = params;
  const labels = requests.map((_, i) => `[s${i}]`).join('');
  const chains = requests.map(
    (request, i) =>
      // The second trim keeps one frame and then ends the branch: nothing more is scaled.
      `[s${i}]trim=start=${Math.max(0, request.atSeconds).toFixed(6)},trim=end_frame=1,` +
      frameChainTail(request, i, width),
  );
  return [
    ...['-hide_banner', '-nostdin', '-loglevel', 'error', '-y'],
    ...mediaInputArgs(inputPath, demuxer),
    ...['-filter_complex', [`[0:v:0]split=${requests.length}${labels}`, ...chains].join(';')],
    ...frameOutputs(requests, quality),
  ];
}

/**
 * Several frames of one video (a meme analysis's extracts): all in one ffmpeg run first, as cheap
 * as one seek each; every frame that run did not write where asked is then grabbed alone, with
 * grabFrame's earlier seeks. Resolves with where each frame is, null where none could be decoded.
 */
export async function grabFrames(
  ffmpegPath: string,
  inputPath: string,
  requests: readonly FrameRequest[],
  options: Omit<GrabFrameOptions, 'atSeconds'> = {},
): Promise<(number | null)[]> {
  const { width = 320, quality = 3, demuxer, signal } = options;
  if (requests.length === 0) return [];
  const found: (number | null)[] = requests.map(() => null);
  /** Runs one pass over the requests still missing; `seeked`: positions count from each seek. */
  const pass = async (pending: number[], args: string[], seeked: boolean): Promise<boolean> => {
    try {
      await runMediaTool(ffmpegPath, args, { signal });
      for (const i of pending) {
        const request = requests[i];
        if (!request) continue;
        const printed = await readPrinted(timestampsPathOf(request.outputJpegPath));
        const at =
          printed === null ? null : (seeked ? Math.max(0, request.atSeconds) : 0) + printed;
        const written = (await fileSize(request.outputJpegPath)) > 0;
        if (written && at !== null && at <= request.atSeconds + FRAME_TOLERANCE_SECONDS) {
          found[i] = at;
        }
      }
      return true;
    } catch (error) {
      if (signal?.aborted) throw error;
      // The frames left are grabbed one by one below, which says which one fails, and why.
      return false;
    } finally {
      await Promise.all(
        pending.map((i) =>
          rm(timestampsPathOf(requests[i]?.outputJpegPath ?? ''), { force: true }),
        ),
      );
    }
  };
  const missing = () => found.flatMap((at, i) => (at === null ? [i] : []));
  const common = { inputPath, width, quality, demuxer };
  await pass(missing(), buildBatchFrameGrabArgs({ ...common, requests }), true);
  let decodedToTheEnd = false;
  if (missing().length > 0) {
    const pending = missing();
    const left = pending.flatMap((i) => (requests[i] ? [requests[i]] : []));
    decodedToTheEnd = await pass(
      pending,
      buildSequentialFrameGrabArgs({ ...common, requests: left }),
      false,
    );
  }
  // Past the end of the picture (the full decode found nothing there): the first frame. After a
  // failed pass: alone, each frame takes its own attempts, or says why not.
  for (const i of missing()) {
    const request = requests[i];
    if (!request) continue;
    try {
      found[i] = (
        await grabFrame(ffmpegPath, inputPath, request.outputJpegPath, {
          ...options,
          atSeconds: decodedToTheEnd ? 0 : request.atSeconds,
        })
      ).atSeconds;
    } catch (error) {
      if (!(error instanceof MediaProbeError)) throw error;
    }
  }
  return found;
}

async function readPrinted(file: string): Promise<number | null> {
  try {
    return printedFrameSeconds(await readFile(file, 'utf8'));
  } catch {
    return null;
  }
}

async function fileSize(file: string): Promise<number> {
  try {
    return (await stat(file)).size;
  } catch {
    return 0;
  }
}

export interface ThumbnailOptions {
  /** Where to take the frame, from the file's start; default 10% of `durationSeconds`, else 1 s. */
  atSeconds?: number;
  /** The video's duration, to pick the default position. */
  durationSeconds?: number;
  /** Output width in pixels (height follows the display aspect ratio). Default 320. */
  width?: number;
  demuxer?: AllowedDemuxer | null;
  signal?: AbortSignal;
}

/**
 * Writes the thumbnail of a video to `outputJpegPath`: one frame as a viewer would see it (ffmpeg's
 * autorotation turns it upright), at 10% of its duration by default.
 */
export async function extractThumbnail(
  ffmpegPath: string,
  input: string,
  outputJpegPath: string,
  options: ThumbnailOptions = {},
): Promise<void> {
  const { durationSeconds } = options;
  const atSeconds =
    options.atSeconds ?? (durationSeconds !== undefined ? durationSeconds * 0.1 : 1);
  await grabFrame(ffmpegPath, input, outputJpegPath, {
    atSeconds,
    width: options.width,
    demuxer: options.demuxer,
    signal: options.signal,
  });
}
