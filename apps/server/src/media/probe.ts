import { stat } from 'node:fs/promises';
import { MAX_SOURCE_DURATION_SECONDS } from '@cadence/shared/schemas/media';
import { z } from 'zod';
import { runMediaTool } from './ffmpeg.ts';
import type { VideoProbe } from './probe-types.ts';

export type MediaProbeErrorCode = 'not_a_video';

/** The file is not something we can treat as a video (ffprobe failed, or no video stream). */
export class MediaProbeError extends Error {
  constructor(
    readonly code: MediaProbeErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'MediaProbeError';
  }
}

/**
 * VideoProbe plus the colour transfer of the video stream, which the story renderer needs to tell
 * HDR (PQ / HLG) from 10-bit SDR. Assignable to VideoProbe.
 */
export interface ProbedVideo extends VideoProbe {
  /** ffprobe's color_transfer, e.g. 'bt709', 'smpte2084' (PQ), 'arib-std-b67' (HLG); null when untagged. */
  colorTransfer: string | null;
}

// ffprobe prints numbers as strings in many places and omits fields freely: accept both, keep
// everything optional and decide defaults below rather than trusting any single field.
const numberish = z.union([z.number(), z.string()]).optional();

const streamSchema = z.looseObject({
  codec_type: z.string().optional(),
  codec_name: z.string().optional(),
  width: z.number().optional(),
  height: z.number().optional(),
  sample_aspect_ratio: z.string().optional(),
  avg_frame_rate: z.string().optional(),
  r_frame_rate: z.string().optional(),
  pix_fmt: z.string().optional(),
  bits_per_raw_sample: numberish,
  duration: numberish,
  color_transfer: z.string().optional(),
  disposition: z.looseObject({ attached_pic: z.number().optional() }).optional(),
  tags: z.looseObject({ rotate: numberish }).optional(),
  side_data_list: z
    .array(
      z.looseObject({
        side_data_type: z.string().optional(),
        rotation: z.number().optional(),
      }),
    )
    .optional(),
});

const ffprobeOutputSchema = z.looseObject({
  streams: z.array(streamSchema).default([]),
  format: z
    .looseObject({
      format_name: z.string().optional(),
      duration: numberish,
      size: numberish,
    })
    .optional(),
});

type FfprobeStream = z.infer<typeof streamSchema>;

function toNumber(value: string | number | undefined): number | undefined {
  if (value === undefined) return undefined;
  const parsed = typeof value === 'number' ? value : Number(value);
  return Number.isFinite(parsed) ? parsed : undefined;
}

/** Parses ffprobe ratios ("30000/1001", "4:3"); "0/0" and "N/A" give undefined. */
export function parseRatio(value: string | undefined): number | undefined {
  if (!value) return undefined;
  const match = /^(\d+(?:\.\d+)?)[/:](\d+(?:\.\d+)?)$/.exec(value.trim());
  if (!match) return toNumber(value);
  const numerator = Number(match[1]);
  const denominator = Number(match[2]);
  if (denominator === 0 || numerator === 0) return undefined;
  return numerator / denominator;
}

/**
 * Clockwise rotation a player applies, normalised to 0/90/180/270. The display matrix angle
 * (ffprobe's side-data `rotation`) is counter-clockwise, hence the sign flip; the legacy `rotate`
 * tag is already clockwise. Only multiples of 90° exist in practice; others round to the nearest.
 */
function normaliseRotation(stream: FfprobeStream): VideoProbe['rotation'] {
  const matrix = stream.side_data_list?.find(
    (entry) => entry.side_data_type === 'Display Matrix' && entry.rotation !== undefined,
  );
  const clockwise =
    matrix?.rotation !== undefined ? -matrix.rotation : (toNumber(stream.tags?.rotate) ?? 0);
  const quarterTurns = (((Math.round(clockwise / 90) % 4) + 4) % 4) as 0 | 1 | 2 | 3;
  return ([0, 90, 180, 270] as const)[quarterTurns];
}

function bitDepthOf(stream: FfprobeStream): number {
  const raw = toNumber(stream.bits_per_raw_sample);
  if (raw && raw > 0) return raw;
  // VP9/HEVC streams often omit bits_per_raw_sample; the pixel format still says it.
  const fromFormat = /p(\d{2})(?:le|be)$/.exec(stream.pix_fmt ?? '');
  return fromFormat ? Number(fromFormat[1]) : 8;
}

/**
 * Turns ffprobe's JSON into a VideoProbe. Pure (no I/O) so odd ffprobe outputs can be tested
 * directly; `fileSizeBytes` is used when the format section has no size.
 */
export function parseFfprobeOutput(json: unknown, fileSizeBytes: number): ProbedVideo {
  const parsed = ffprobeOutputSchema.safeParse(json);
  if (!parsed.success) {
    throw new MediaProbeError('not_a_video', 'ffprobe output is not what we expect', {
      cause: parsed.error,
    });
  }
  const { streams, format } = parsed.data;
  // Cover art in MP4/M4A shows up as a video stream flagged attached_pic: it is not a video.
  const video = streams.find(
    (stream) =>
      stream.codec_type === 'video' &&
      stream.disposition?.attached_pic !== 1 &&
      (stream.width ?? 0) > 0 &&
      (stream.height ?? 0) > 0,
  );
  if (!video?.width || !video.height) {
    throw new MediaProbeError('not_a_video', 'the file has no video stream');
  }
  const audio = streams.find((stream) => stream.codec_type === 'audio');
  const rotation = normaliseRotation(video);
  const sampleAspectRatio = parseRatio(video.sample_aspect_ratio) ?? 1;
  // Display size as a viewer sees it: stretch by SAR first (it applies to coded pixels), then turn.
  const stretchedWidth = Math.round(video.width * sampleAspectRatio);
  const quarterTurn = rotation === 90 || rotation === 270;
  const durationSeconds = toNumber(format?.duration) ?? toNumber(video.duration) ?? 0;
  return {
    container: format?.format_name ?? 'unknown',
    videoCodec: video.codec_name ?? 'unknown',
    width: video.width,
    height: video.height,
    displayWidth: quarterTurn ? video.height : stretchedWidth,
    displayHeight: quarterTurn ? stretchedWidth : video.height,
    rotation,
    sampleAspectRatio,
    fps: parseRatio(video.avg_frame_rate) ?? parseRatio(video.r_frame_rate) ?? 0,
    pixelFormat: video.pix_fmt ?? 'unknown',
    bitDepth: bitDepthOf(video),
    durationSeconds,
    sizeBytes: toNumber(format?.size) ?? fileSizeBytes,
    hasAudio: audio !== undefined,
    audioCodec: audio?.codec_name ?? null,
    colorTransfer:
      video.color_transfer && video.color_transfer !== 'unknown' ? video.color_transfer : null,
  };
}

/**
 * Probes a local video file with ffprobe. Rejects with MediaProbeError('not_a_video') when ffprobe
 * cannot read it or it has no video stream.
 */
export async function probeVideo(
  ffprobePath: string,
  filePath: string,
  options: { signal?: AbortSignal } = {},
): Promise<ProbedVideo> {
  let stdout: string;
  try {
    ({ stdout } = await runMediaTool(
      ffprobePath,
      ['-v', 'error', '-print_format', 'json', '-show_format', '-show_streams', filePath],
      { signal: options.signal },
    ));
  } catch (error) {
    if (options.signal?.aborted) throw error;
    throw new MediaProbeError('not_a_video', 'ffprobe could not read the file', { cause: error });
  }
  let json: unknown;
  try {
    json = JSON.parse(stdout);
  } catch (error) {
    throw new MediaProbeError('not_a_video', 'ffprobe printed invalid JSON', { cause: error });
  }
  const { size } = await stat(filePath);
  return parseFfprobeOutput(json, size);
}

export type TikTokVideoProblem =
  | 'unsupported_container'
  | 'unsupported_codec'
  | 'duration_too_long'
  | 'too_small'
  | 'too_large'
  | 'fps_out_of_range'
  | 'file_too_big';

export interface TikTokVideoLimits {
  /** Default 600 (the API's ceiling); pass the creator's max_video_post_duration_sec when known. */
  maxDurationSeconds?: number;
  /** Default 4 GiB. */
  maxBytes?: number;
}

const TIKTOK_VIDEO_CODECS = new Set(['h264', 'hevc', 'vp8', 'vp9']);
const WEBM_VIDEO_CODECS = new Set(['vp8', 'vp9', 'av1']);
const WEBM_AUDIO_CODECS = new Set(['opus', 'vorbis']);
const MIN_SIDE = 360;
const MAX_SIDE = 4096;
const MIN_FPS = 23;
const MAX_FPS = 60;

/**
 * MP4/MOV, or WebM. ffprobe names Matroska and WebM alike ('matroska,webm'), so a Matroska file
 * counts as WebM only when its codecs are ones WebM allows (what the WebM muxer would accept).
 */
function isTikTokContainer(probe: VideoProbe): boolean {
  const names = probe.container.split(',');
  if (names.includes('mp4') || names.includes('mov')) return true;
  if (!names.includes('webm')) return false;
  const audioOk = probe.audioCodec === null || WEBM_AUDIO_CODECS.has(probe.audioCodec);
  return WEBM_VIDEO_CODECS.has(probe.videoCodec) && audioOk;
}

/**
 * What TikTok would refuse about this video (tiktok-api.md §5), as reason codes; empty when it is
 * fine. Defaults: 600 s, 4 GiB. Sides are checked on coded pixels, as TikTok's size check does.
 */
export function validateForTikTok(
  probe: VideoProbe,
  limits: TikTokVideoLimits = {},
): TikTokVideoProblem[] {
  const { maxDurationSeconds = 600, maxBytes = 4 * 1024 ** 3 } = limits;
  const problems: TikTokVideoProblem[] = [];
  if (!isTikTokContainer(probe)) problems.push('unsupported_container');
  if (!TIKTOK_VIDEO_CODECS.has(probe.videoCodec)) problems.push('unsupported_codec');
  if (probe.durationSeconds > maxDurationSeconds) problems.push('duration_too_long');
  if (Math.min(probe.width, probe.height) < MIN_SIDE) problems.push('too_small');
  if (Math.max(probe.width, probe.height) > MAX_SIDE) problems.push('too_large');
  // A little slack below 23 so 23.976 and VFR phone clips averaging 22.99 are not refused.
  if (probe.fps < MIN_FPS - 0.05 || probe.fps > MAX_FPS + 0.05) problems.push('fps_out_of_range');
  if (probe.sizeBytes > maxBytes) problems.push('file_too_big');
  return problems;
}

/** What a story or meme source must be: any readable video (probing proved that), not endless. */
export function validateAsSource(probe: VideoProbe): 'source_too_long'[] {
  return probe.durationSeconds > MAX_SOURCE_DURATION_SECONDS ? ['source_too_long'] : [];
}

export interface ThumbnailOptions {
  /** Where to take the frame; default 10% of `durationSeconds`, else 1 s. */
  atSeconds?: number;
  /** The video's duration, to pick the default position. */
  durationSeconds?: number;
  /** Output width in pixels (height follows the display aspect ratio). Default 320. */
  width?: number;
  signal?: AbortSignal;
}

/**
 * Writes one JPEG frame of `input` to `outputJpegPath`, as a viewer would see it: ffmpeg's
 * autorotation turns it upright, and non-square pixels are made square before scaling.
 */
export async function extractThumbnail(
  ffmpegPath: string,
  input: string,
  outputJpegPath: string,
  options: ThumbnailOptions = {},
): Promise<void> {
  const { width = 320, durationSeconds, signal } = options;
  const atSeconds =
    options.atSeconds ?? (durationSeconds !== undefined ? durationSeconds * 0.1 : 1);
  const run = (seconds: number) =>
    runMediaTool(
      ffmpegPath,
      [
        '-hide_banner',
        '-loglevel',
        'error',
        '-y',
        '-ss',
        seconds.toFixed(3),
        '-i',
        input,
        '-frames:v',
        '1',
        '-vf',
        // -2 keeps the height even, which the JPEG encoder's 4:2:0 output needs.
        `scale=iw*sar:ih,setsar=1,scale=${width}:-2`,
        '-q:v',
        '3',
        '-update',
        '1',
        outputJpegPath,
      ],
      { signal },
    );
  await run(atSeconds);
  // Seeking past the last frame (short clip, wrong duration) yields no frame but exit code 0.
  if ((await fileSize(outputJpegPath)) === 0 && atSeconds > 0) await run(0);
  if ((await fileSize(outputJpegPath)) === 0) {
    throw new MediaProbeError('not_a_video', 'no frame could be decoded for the thumbnail');
  }
}

async function fileSize(path: string): Promise<number> {
  try {
    return (await stat(path)).size;
  } catch {
    return 0;
  }
}
