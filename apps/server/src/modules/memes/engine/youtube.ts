import { abortReason, runTool, stderrTail } from '../../../lib/run-tool.ts';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import type { YouTubeLink } from '@cadence/shared/youtube-url';
import { z } from 'zod';
import type { HeatmapPoint } from './types.ts';

/**
 * Fetching a YouTube video with yt-dlp: metadata first (`--dump-single-json`, which also tells us
 * the 'most replayed' heatmap and lets us refuse over-long videos before downloading anything),
 * then the download itself, at most 720p (the compilation is 1080 px wide at 9:16, so a 720p
 * source is already cropped to ~400 px of width: more costs time, not quality).
 */

export type VideoFetchErrorCode =
  'downloader_missing' | 'unavailable' | 'too_long' | 'network' | 'failed';

export class VideoFetchError extends Error {
  constructor(
    readonly code: VideoFetchErrorCode,
    message: string,
    readonly details?: string,
  ) {
    super(message);
    this.name = 'VideoFetchError';
  }
}

export interface YouTubeMetadata {
  id: string;
  title: string;
  /** Null when yt-dlp knows no duration (a direct file link, say); the analysis probes it. */
  durationSeconds: number | null;
  /** A live stream (or one not started yet): nothing to download to the end. */
  isLive: boolean;
  heatmap: HeatmapPoint[] | null;
  /** How many files the chosen format downloads (2 when video and audio are merged). */
  downloadCount: number;
}

const heatmapPointSchema = z.object({
  start_time: z.number().nonnegative(),
  end_time: z.number().nonnegative(),
  value: z.number(),
});

const metadataSchema = z.object({
  id: z.string().min(1),
  title: z.string().default(''),
  duration: z.number().positive().nullish(),
  // yt-dlp emits null, omits it, or (rarely) a malformed list; none of those should fail a fetch.
  heatmap: z.array(z.unknown()).nullish(),
  requested_formats: z.array(z.unknown()).nullish(),
  is_live: z.boolean().nullish(),
  live_status: z.string().nullish(),
});

/** Reads yt-dlp's `--dump-single-json` output; throws a ZodError when it is not a video's metadata. */
export function parseYtDlpMetadata(json: unknown): YouTubeMetadata {
  const parsed = metadataSchema.parse(json);
  const points = (parsed.heatmap ?? []).flatMap((raw) => {
    const point = heatmapPointSchema.safeParse(raw);
    if (!point.success || point.data.end_time <= point.data.start_time) return [];
    return [
      {
        startSeconds: point.data.start_time,
        endSeconds: point.data.end_time,
        value: Math.min(1, Math.max(0, point.data.value)),
      },
    ];
  });
  return {
    id: parsed.id,
    title: parsed.title,
    durationSeconds: parsed.duration ?? null,
    isLive:
      parsed.is_live === true ||
      parsed.live_status === 'is_live' ||
      parsed.live_status === 'is_upcoming',
    heatmap: points.length > 0 ? points.sort((a, b) => a.startSeconds - b.startSeconds) : null,
    downloadCount: Math.max(1, parsed.requested_formats?.length ?? 1),
  };
}

/** The percentage of a `--newline` progress line such as `[download]  42.0% of 10.00MiB`, else null. */
export function parseYtDlpProgress(line: string): number | null {
  const match = /^\[download\]\s+(\d+(?:\.\d+)?)%/.exec(line.trim());
  return match?.[1] ? Number(match[1]) : null;
}

/** Best ≤720p MP4 (H.264 + AAC) when offered, else the best ≤720p of anything, else the best. */
export const YT_DLP_FORMAT =
  'bv*[height<=720][ext=mp4]+ba[ext=m4a]/b[height<=720][ext=mp4]/bv*[height<=720]+ba/b[height<=720]/b';

const COMMON_ARGS = ['--ignore-config', '--no-playlist', '--no-warnings', '-f', YT_DLP_FORMAT];

/**
 * What yt-dlp is given for a link: the canonical watch URL, read by YouTube's own extractor only.
 * `--use-extractors youtube` leaves out every other extractor, the generic one (which fetches any
 * page or file) included, so even a redirect or an embed that yt-dlp would hand to another
 * extractor ends in 'No suitable extractor' instead of a fetch. With a test origin (an operator's
 * loopback server standing in for YouTube; see config.ts) the same video id is fetched from
 * `<origin>/<id>.mp4` by the generic extractor alone; the link was validated the same way.
 */
export function ytDlpSource(
  link: YouTubeLink,
  testOrigin: string | null = null,
): { extractorArgs: string[]; url: string } {
  return testOrigin === null
    ? { extractorArgs: ['--use-extractors', 'youtube'], url: link.url }
    : {
        extractorArgs: ['--use-extractors', 'generic'],
        url: `${new URL(testOrigin).origin}/${link.videoId}.mp4`,
      };
}

/** Messages yt-dlp prints for videos nobody can fetch (private, removed, blocked, age-gated…). */
const UNAVAILABLE_PATTERN =
  /unavailable|private video|not available|has been removed|does not exist|copyright|sign in to confirm|members-only|incomplete youtube id|is not a valid url|unsupported url|404/i;

/**
 * Messages yt-dlp prints when this server cannot reach the site at all: name resolution, refused
 * or dropped connections, timeouts. From its urllib handler ("Unable to download webpage:
 * <urlopen error [Errno -2] Name or service not known>", "[Errno 111] Connection refused", "timed
 * out") and from its requests/urllib3 one ("Failed to resolve 'www.youtube.com'", "Failed to
 * establish a new connection", "Read timed out", "Max retries exceeded").
 */
const NETWORK_PATTERN =
  /name or service not known|temporary failure in name resolution|no address associated with hostname|nodename nor servname|getaddrinfo failed|failed to resolve|connection refused|connection reset|connection aborted|network is unreachable|no route to host|timed out|remote end closed connection|max retries exceeded|failed to establish a new connection|unable to connect to proxy/i;

/**
 * What a failed yt-dlp run means for the person, from the ERROR lines it printed. Network first:
 * a link that cannot be reached says nothing yet about the video.
 */
export function classifyYtDlpFailure(summary: string): 'network' | 'unavailable' | 'failed' {
  if (NETWORK_PATTERN.test(summary)) return 'network';
  if (UNAVAILABLE_PATTERN.test(summary)) return 'unavailable';
  return 'failed';
}

/** Runs yt-dlp through runTool and turns a failure into a VideoFetchError saying what it means. */
async function runYtDlp(
  binary: string,
  args: string[],
  options: { signal?: AbortSignal; onStdoutLine?: (line: string) => void },
): Promise<{ stdout: string; stderr: string }> {
  const { signal, onStdoutLine } = options;
  const exit = await runTool(binary, args, {
    ...(signal && { signal }),
    ...(onStdoutLine && { onStdoutLine }),
    maxStderrBytes: 16 * 1024,
  });
  const { spawnError } = exit;
  if (spawnError?.code === 'ENOENT' || spawnError?.code === 'EACCES') {
    throw new VideoFetchError(
      'downloader_missing',
      `yt-dlp cannot be run: ${spawnError.code}`,
      binary,
    );
  }
  if (spawnError)
    throw new VideoFetchError('failed', `yt-dlp failed to start: ${spawnError.message}`);
  if (exit.aborted) throw abortReason(signal);
  if (exit.code === 0) return { stdout: exit.stdout, stderr: exit.stderr };
  const errorLines = exit.stderr
    .split('\n')
    .filter((line) => line.startsWith('ERROR'))
    .join('\n');
  const summary = errorLines || stderrTail(exit.stderr, 3);
  const reason = exit.overMemory ? 'failed' : classifyYtDlpFailure(summary);
  throw new VideoFetchError(reason, `yt-dlp exited with code ${String(exit.code)}`, summary);
}

export interface FetchYouTubeVideoParams {
  ytDlpPath: string;
  /** A link parseYouTubeUrl accepted: nothing else can reach yt-dlp. */
  link: YouTubeLink;
  /**
   * Tests and benchmarks only (YOUTUBE_TEST_ORIGIN): a loopback origin serving `/<id>.mp4` in
   * YouTube's place. Null (the default): YouTube itself.
   */
  testOrigin?: string | null;
  /**
   * An empty directory for this fetch, removed by the caller afterwards (also after a failure or
   * an abort, which can leave partial files); the video lands there as `<id>.mp4` (or `<id>.webm`
   * when YouTube offers no MP4 at all).
   */
  outputDir: string;
  /** ffmpeg for yt-dlp to merge video and audio when it is not on the PATH. */
  ffmpegPath?: string;
  signal?: AbortSignal;
  /** Fraction 0..1 of the download. */
  onProgress?: (fraction: number) => void;
  /** Longer videos are refused before downloading (default 3 h). */
  maxDurationSeconds?: number;
}

export interface FetchedVideo {
  filePath: string;
  metadata: YouTubeMetadata;
}

/** Downloads a YouTube video (≤720p, MP4 when possible) with its metadata and heatmap. */
export async function fetchYouTubeVideo(params: FetchYouTubeVideoParams): Promise<FetchedVideo> {
  const { ytDlpPath, outputDir, signal, onProgress, maxDurationSeconds = 3 * 3600 } = params;
  const { extractorArgs, url } = ytDlpSource(params.link, params.testOrigin ?? null);
  // '--' ends the options: whatever the URL, it can never become a yt-dlp option.
  const dump = await runYtDlp(
    ytDlpPath,
    [...COMMON_ARGS, ...extractorArgs, '--dump-single-json', '--', url],
    { signal },
  );
  let metadata: YouTubeMetadata;
  try {
    metadata = parseYtDlpMetadata(JSON.parse(dump.stdout) as unknown);
  } catch (error) {
    throw new VideoFetchError('failed', 'yt-dlp metadata could not be read', String(error));
  }
  if (metadata.isLive) {
    throw new VideoFetchError('unavailable', 'Live streams cannot be analysed');
  }
  if (metadata.durationSeconds !== null && metadata.durationSeconds > maxDurationSeconds) {
    throw new VideoFetchError(
      'too_long',
      `The video lasts ${Math.round(metadata.durationSeconds)} s, more than ${maxDurationSeconds} s`,
    );
  }
  // The id names the file; keep it to safe characters whatever yt-dlp reports.
  const fileStem = metadata.id.replace(/[^A-Za-z0-9_-]/g, '_');
  let filesStarted = 0;
  let lastFraction = 0;
  await runYtDlp(
    ytDlpPath,
    [
      ...COMMON_ARGS,
      ...extractorArgs,
      '--newline',
      '--no-part',
      '--no-mtime',
      '--merge-output-format',
      'mp4',
      ...(params.ffmpegPath ? ['--ffmpeg-location', params.ffmpegPath] : []),
      '-o',
      path.join(outputDir, `${fileStem}.%(ext)s`),
      '--',
      url,
    ],
    {
      signal,
      onStdoutLine: (line) => {
        if (line.startsWith('[download] Destination:')) filesStarted += 1;
        const percent = parseYtDlpProgress(line);
        if (percent === null || !onProgress) return;
        const done = Math.max(0, filesStarted - 1);
        const fraction = (done + percent / 100) / Math.max(metadata.downloadCount, done + 1);
        // Merged downloads restart at 0 % for the audio file; the bar never goes back.
        if (fraction > lastFraction) {
          lastFraction = Math.min(1, fraction);
          onProgress(lastFraction);
        }
      },
    },
  );
  const files = await readdir(outputDir);
  const candidates = files.filter(
    (name) => name.startsWith(`${fileStem}.`) && !/\.(part|ytdl|temp)$|\.f\d+\./.test(name),
  );
  const chosen = candidates.find((name) => name.endsWith('.mp4')) ?? candidates[0];
  if (!chosen) {
    throw new VideoFetchError('failed', 'yt-dlp reported success but wrote no video file');
  }
  if (lastFraction < 1) onProgress?.(1);
  return { filePath: path.join(outputDir, chosen), metadata };
}
