import { stat } from 'node:fs/promises';
import { MAX_SOURCE_DURATION_SECONDS } from '@cadence/shared/schemas/media';
import { z } from 'zod';
import { runMediaTool } from './ffmpeg.ts';
import { allowedDemuxerOf, mediaInputArgs } from './media-allow-list.ts';
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
      start_time: numberish,
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
  // ffprobe ran under the allow-list; this keeps parsed output from anywhere else to the same rule.
  if (!allowedDemuxerOf(format?.format_name ?? '')) {
    throw new MediaProbeError('not_a_video', 'the container is not on the allow-list');
  }
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
    startTimeSeconds: toNumber(format?.start_time) ?? 0,
    sizeBytes: toNumber(format?.size) ?? fileSizeBytes,
    hasAudio: audio !== undefined,
    audioCodec: audio?.codec_name ?? null,
    colorTransfer:
      video.color_transfer && video.color_transfer !== 'unknown' ? video.color_transfer : null,
  };
}

/**
 * Probes a local video file with ffprobe, under the media allow-list (media-allow-list.ts), and
 * checks that its duration is the one its packets show. Rejects with MediaProbeError('not_a_video')
 * when ffprobe cannot read it, it has no video stream, or its header lies about its length.
 */
export async function probeVideo(
  ffprobePath: string,
  filePath: string,
  options: { signal?: AbortSignal } = {},
): Promise<ProbedVideo> {
  const { signal } = options;
  let stdout: string;
  try {
    ({ stdout } = await runMediaTool(
      ffprobePath,
      [
        ...['-v', 'error', '-print_format', 'json', '-show_format', '-show_streams'],
        ...mediaInputArgs(filePath),
      ],
      { signal },
    ));
  } catch (error) {
    if (signal?.aborted) throw error;
    throw new MediaProbeError('not_a_video', 'ffprobe could not read the file', { cause: error });
  }
  let json: unknown;
  try {
    json = JSON.parse(stdout);
  } catch (error) {
    throw new MediaProbeError('not_a_video', 'ffprobe printed invalid JSON', { cause: error });
  }
  const { size } = await stat(filePath);
  const probe = parseFfprobeOutput(json, size);
  await assertDurationMatchesPackets(ffprobePath, filePath, probe, signal);
  await assertPacketsCoverDuration(ffprobePath, filePath, probe, signal);
  return probe;
}

/** How far the packets may end from the header's duration: a frame or two, rounding, padding. */
function durationTolerance(durationSeconds: number): number {
  return Math.max(1, durationSeconds * 0.02);
}

/** How much of the end of a file the duration check reads (packets only, nothing is decoded). */
const DURATION_CHECK_WINDOW_SECONDS = 10;

/**
 * The end of the last packet, relative to the file's start, from the packets of the final
 * DURATION_CHECK_WINDOW_SECONDS the header claims (pure; ffprobe's `packet=pts_time,dts_time,
 * duration_time` as CSV lines). Null when no packet carries a timestamp.
 */
export function lastPacketEndSeconds(csv: string, startTimeSeconds: number): number | null {
  let end: number | null = null;
  for (const line of csv.split('\n')) {
    // Number('') is 0: an empty field is no timestamp, not time zero.
    const [pts, dts, duration] = line
      .trim()
      .split(',')
      .map((field) => (field === '' ? undefined : field));
    const at = toNumber(pts) ?? toNumber(dts);
    if (at === undefined) continue;
    const packetEnd = at + (toNumber(duration) ?? 0) - startTimeSeconds;
    end = end === null ? packetEnd : Math.max(end, packetEnd);
  }
  return end;
}

/**
 * ffprobe's packet lines (`-of csv=p=0`) of the probed file for `selection` (streams, intervals,
 * entries); a file ffprobe cannot read that way is not a video.
 */
async function readPackets(
  ffprobePath: string,
  filePath: string,
  probe: ProbedVideo,
  selection: readonly string[],
  signal: AbortSignal | undefined,
): Promise<string> {
  try {
    const { stdout } = await runMediaTool(
      ffprobePath,
      [
        ...['-v', 'error', ...selection, '-of', 'csv=p=0'],
        ...mediaInputArgs(filePath, allowedDemuxerOf(probe.container)),
      ],
      { signal, maxStderrBytes: 4096 },
    );
    return stdout;
  } catch (error) {
    if (signal?.aborted) throw error;
    throw new MediaProbeError('not_a_video', 'ffprobe could not read the packets', {
      cause: error,
    });
  }
}

/**
 * A header can claim any duration (100 hours in a 2 s file) and a truncated file keeps claiming
 * its full length: both would then be sized, seeked and rendered by a number that is not there.
 * Reads the packets of the claimed last seconds and refuses the file when they end elsewhere.
 */
async function assertDurationMatchesPackets(
  ffprobePath: string,
  filePath: string,
  probe: ProbedVideo,
  signal: AbortSignal | undefined,
): Promise<void> {
  // No claimed duration (some live recordings): nothing to hold the packets against.
  if (!(probe.durationSeconds > 0)) return;
  const startTime = probe.startTimeSeconds ?? 0;
  // ffprobe's read_intervals are absolute timestamps, hence the start time.
  const from = startTime + Math.max(0, probe.durationSeconds - DURATION_CHECK_WINDOW_SECONDS);
  const stdout = await readPackets(
    ffprobePath,
    filePath,
    probe,
    [
      ...['-read_intervals', `${from.toFixed(6)}%`],
      ...['-show_entries', 'packet=pts_time,dts_time,duration_time'],
    ],
    signal,
  );
  const end = lastPacketEndSeconds(stdout, startTime);
  const tolerance = durationTolerance(probe.durationSeconds);
  if (end === null || Math.abs(end - probe.durationSeconds) > tolerance) {
    throw new MediaProbeError(
      'not_a_video',
      `the header says ${probe.durationSeconds} s but the packets end at ${String(end)} s`,
    );
  }
}

/**
 * How far from a sampled instant the nearest video packet may be. A longer stretch without any
 * frame is not a pause in a real recording (even VFR screen captures send a frame every few
 * seconds) but an empty span that every later ffmpeg step would fill with copies of one frame.
 */
export const MAX_PACKET_GAP_SECONDS = 5;

/** At most this many instants are sampled, one per stratum of the duration (one seek each). */
const COVERAGE_SAMPLES = 32;
/** ...and at least one per this many seconds of claimed duration, up to COVERAGE_SAMPLES. */
const COVERAGE_STRATUM_SECONDS = 20;

/**
 * The instants (absolute, like packet timestamps) at which a file of this duration must have
 * video packets: one at a random point of each of `count` equal strata. Random so that a crafted
 * file cannot put packets only where the check looks; with a fraction f of the span really
 * covered, a file passes with probability about f^count.
 */
export function coverageSamples(
  startTimeSeconds: number,
  durationSeconds: number,
  random: () => number = Math.random,
): number[] {
  const count = Math.min(
    COVERAGE_SAMPLES,
    Math.max(1, Math.ceil(durationSeconds / COVERAGE_STRATUM_SECONDS)),
  );
  const stratum = durationSeconds / count;
  return Array.from(
    { length: count },
    (_, index) => startTimeSeconds + (index + random()) * stratum,
  );
}

/**
 * The first sampled instant with no packet within MAX_PACKET_GAP_SECONDS of it, or null when every
 * one has one (pure; `csv` is ffprobe's `packet=pts_time,dts_time` lines, in absolute time).
 */
export function firstUncoveredSample(csv: string, samples: readonly number[]): number | null {
  const times: number[] = [];
  for (const line of csv.split('\n')) {
    const [pts, dts] = line
      .trim()
      .split(',')
      .map((field) => (field === '' ? undefined : field));
    const at = toNumber(pts) ?? toNumber(dts);
    if (at !== undefined) times.push(at);
  }
  return (
    samples.find(
      (sample) => !times.some((at) => Math.abs(at - sample) <= MAX_PACKET_GAP_SECONDS),
    ) ?? null
  );
}

/**
 * The tail check above only proves where the packets end. A file can still claim hours it does
 * not have in between: two 4 s MPEG-TS segments, the second stamped 10,000 s later, probe as a
 * 2.8 h video whose packets really end at 10,004 s; analysis and compilation then spend minutes
 * and gigabytes rendering the empty span. Seeks to sampled instants (ffprobe's read_intervals:
 * from the keyframe before each one to MAX_PACKET_GAP_SECONDS after it, packets only, nothing
 * decoded) and refuses the file when the video has no packet near one of them.
 */
async function assertPacketsCoverDuration(
  ffprobePath: string,
  filePath: string,
  probe: ProbedVideo,
  signal: AbortSignal | undefined,
): Promise<void> {
  if (!(probe.durationSeconds > 0)) return;
  const samples = coverageSamples(probe.startTimeSeconds ?? 0, probe.durationSeconds);
  // An absolute end: ffprobe counts '%+N' from the keyframe it seeked to, which with a long GOP
  // (a keyframe every 10 s) would stop before the sampled instant.
  const intervals = samples
    .map((at) => {
      const from = Math.max(0, at);
      return `${from.toFixed(6)}%${(from + MAX_PACKET_GAP_SECONDS).toFixed(6)}`;
    })
    .join(',');
  const stdout = await readPackets(
    ffprobePath,
    filePath,
    probe,
    [
      ...['-select_streams', 'V:0', '-read_intervals', intervals],
      ...['-show_entries', 'packet=pts_time,dts_time'],
    ],
    signal,
  );
  const uncovered = firstUncoveredSample(stdout, samples);
  if (uncovered !== null) {
    throw new MediaProbeError(
      'not_a_video',
      `the header says ${probe.durationSeconds} s but the video has no packet near ${uncovered.toFixed(1)} s`,
    );
  }
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
