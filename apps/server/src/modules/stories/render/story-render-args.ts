import { allowedDemuxerOf, mediaInputArgs } from '../../../media/media-allow-list.ts';
import type { VideoProbe } from '../../../media/probe-types.ts';

/** A story is a 1080×1920 portrait video: the top clip over the bottom clip, each 1080×960. */
export const STORY_WIDTH = 1080;
export const STORY_HEIGHT = 1920;
export const STORY_HALF_HEIGHT = STORY_HEIGHT / 2;
export const STORY_FPS = 30;
/** TikTok's API ceiling for a post (tiktok-api.md §5). */
export const STORY_MAX_SECONDS = 600;
/** How loud the bottom clip's sound is under the top's when mixed. */
export const BOTTOM_AUDIO_VOLUME = 0.3;

/**
 * Encoder settings. libx264 `veryfast` at CRF 20: TikTok re-encodes every upload, so what we send
 * is a mezzanine: it must look clean after a second generation (CRF 20 keeps gradients and text
 * sharp at 1080×1920) and render well faster than real time on a small machine (`veryfast` is ~2×
 * faster than `medium` for ~10% more bits at equal quality; slower presets buy little on a file
 * that is re-encoded anyway). Keyframes every 2 s keep the browser preview seekable. High profile,
 * 4:2:0 8-bit: what every TikTok client and browser decodes.
 */
export const STORY_VIDEO_ENCODER_ARGS: readonly string[] = [
  '-c:v',
  'libx264',
  '-preset',
  'veryfast',
  '-crf',
  '20',
  '-profile:v',
  'high',
  '-pix_fmt',
  'yuv420p',
  '-g',
  String(STORY_FPS * 2),
];

/** AAC-LC 128 kb/s, 48 kHz stereo: TikTok's usual upload audio. */
export const STORY_AUDIO_ENCODER_ARGS: readonly string[] = [
  '-c:a',
  'aac',
  '-b:a',
  '128k',
  '-ar',
  '48000',
  '-ac',
  '2',
];

/** A probe plus, when known, the colour transfer (probeVideo's ProbedVideo has it). */
export type StoryClipProbe = VideoProbe & { colorTransfer?: string | null };

export interface StoryClip {
  path: string;
  probe: StoryClipProbe;
}

export interface StoryRenderInput {
  top: StoryClip;
  bottom: StoryClip;
  outputPath: string;
  /** Mix the bottom clip's sound (at BOTTOM_AUDIO_VOLUME) under the top's, when it has any. */
  mixBottomAudio: boolean;
  /** Cap ffmpeg's encoder and filter threads (default: ffmpeg decides, i.e. all cores). */
  threads?: number;
}

export interface FfmpegCapabilities {
  /** The zscale filter (libzimg), needed for HDR → SDR tone mapping. */
  zscale: boolean;
}

/** The story lasts as long as the top clip, up to STORY_MAX_SECONDS. */
export function storyDurationSeconds(top: VideoProbe): number {
  return Math.min(top.durationSeconds, STORY_MAX_SECONDS);
}

const HDR_TRANSFERS = new Set(['smpte2084', 'arib-std-b67']);

export function isHdr(probe: StoryClipProbe): boolean {
  return probe.colorTransfer != null && HDR_TRANSFERS.has(probe.colorTransfer);
}

/**
 * Filters that bring one clip to a 1080×960 8-bit 4:2:0 half. ffmpeg has already turned the frames
 * upright (autorotation is on by default for filter inputs, and the probe's display size assumes
 * it), so only pixel shape, size, rate and depth are left to fix.
 */
export function halfFilterChain(probe: StoryClipProbe, capabilities: FfmpegCapabilities): string {
  const filters = [
    // Constant 30 fps first: VFR becomes CFR, and 60 fps inputs halve the scaling work below.
    `fps=${STORY_FPS}`,
    // Make pixels square before measuring, so "cover" keeps the displayed proportions.
    'scale=iw*sar:ih',
    'setsar=1',
    // Cover: scale until both sides reach the half's size, then crop the overflow, centred.
    `scale=${STORY_WIDTH}:${STORY_HALF_HEIGHT}:force_original_aspect_ratio=increase`,
    `crop=${STORY_WIDTH}:${STORY_HALF_HEIGHT}`,
    'setsar=1',
  ];
  if (isHdr(probe) && capabilities.zscale) {
    // Tone-map after downscaling: the float stages are the costly part and run on 1080×960 only.
    // BT.2020 primaries and matrix are assumed for PQ/HLG, as every HDR phone clip uses them.
    const transfer = probe.colorTransfer ?? 'smpte2084';
    filters.push(
      `zscale=tin=${transfer}:min=bt2020nc:pin=bt2020:rin=tv:t=linear:npl=100`,
      'format=gbrpf32le',
      'zscale=p=bt709',
      'tonemap=tonemap=hable:desat=0',
      'zscale=t=bt709:m=bt709:r=tv',
    );
  }
  // 10-bit (and 4:4:4, e.g. odd-sized) inputs become 8-bit 4:2:0; vstack needs both halves alike.
  filters.push('format=yuv420p');
  return filters.join(',');
}

/** The audio branch of the graph, ending in [aout]; the output's -t bounds its length. */
function audioFilter(input: StoryRenderInput): string {
  const normalise = 'aresample=48000,aformat=sample_fmts=fltp:channel_layouts=stereo';
  const mixBottom = input.mixBottomAudio && input.bottom.probe.hasAudio;
  const top = input.top.probe.hasAudio;
  if (top && mixBottom) {
    // normalize=0: keep the top at full volume instead of amix's default halving of each input.
    return (
      `[0:a]${normalise}[atop];[1:a]${normalise},volume=${BOTTOM_AUDIO_VOLUME}[abottom];` +
      `[atop][abottom]amix=inputs=2:duration=longest:normalize=0,apad[aout]`
    );
  }
  // apad: a top whose sound stops before its picture still gets audio to the story's end.
  if (top) return `[0:a]${normalise},apad[aout]`;
  if (mixBottom) return `[1:a]${normalise},volume=${BOTTOM_AUDIO_VOLUME},apad[aout]`;
  // Silence, so every story has an audio track (TikTok and players expect one).
  return 'anullsrc=channel_layout=stereo:sample_rate=48000[aout]';
}

/**
 * The ffmpeg argument list (no shell) for a story: the top clip's first `storyDurationSeconds`
 * over the bottom clip, looped as often as needed, 1080×1920 at 30 fps, H.264 + AAC, faststart.
 * Progress goes to stdout (`-progress pipe:1`). `capabilities.zscale` defaults to true. Throws a
 * RangeError when the top clip's duration is not positive.
 */
export function buildStoryRenderArgs(
  input: StoryRenderInput,
  capabilities: FfmpegCapabilities = { zscale: true },
): string[] {
  const duration = storyDurationSeconds(input.top.probe);
  // A zero-length story would be an empty MP4 that fails only at TikTok; refuse it here.
  if (!(duration > 0)) throw new RangeError('the top clip has no duration to render');
  const graph = [
    `[0:v]${halfFilterChain(input.top.probe, capabilities)}[top]`,
    `[1:v]${halfFilterChain(input.bottom.probe, capabilities)}[bottom]`,
    `[top][bottom]vstack=inputs=2,setsar=1[vout]`,
    audioFilter(input),
  ].join(';');
  const threads =
    input.threads !== undefined
      ? ['-threads', String(input.threads), '-filter_complex_threads', String(input.threads)]
      : [];
  return [
    '-hide_banner',
    '-loglevel',
    'error',
    '-nostdin',
    '-y',
    // Each clip through the media allow-list, read with the demuxer its probe found.
    ...mediaInputArgs(input.top.path, allowedDemuxerOf(input.top.probe.container)),
    // Loop the bottom endlessly; the output duration (-t) cuts it, whether shorter or longer.
    '-stream_loop',
    '-1',
    ...mediaInputArgs(input.bottom.path, allowedDemuxerOf(input.bottom.probe.container)),
    '-filter_complex',
    graph,
    '-map',
    '[vout]',
    '-map',
    '[aout]',
    '-t',
    duration.toFixed(3),
    ...STORY_VIDEO_ENCODER_ARGS,
    ...STORY_AUDIO_ENCODER_ARGS,
    ...threads,
    // Drop the inputs' metadata (phone clips carry GPS location and device names).
    '-map_metadata',
    '-1',
    // moov atom first: the preview plays while downloading, and TikTok's upload check reads it early.
    '-movflags',
    '+faststart',
    '-progress',
    'pipe:1',
    '-nostats',
    input.outputPath,
  ];
}
