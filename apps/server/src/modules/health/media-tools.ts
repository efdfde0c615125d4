import { mkdtemp, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { MediaToolState } from '@cadence/shared/schemas/user';
import type { FastifyBaseLogger } from 'fastify';
import type { Logger } from 'pino';
import type { Config } from '../../config.ts';
import { runTool, type ToolExit, type ToolRunOptions } from '../../lib/run-tool.ts';

/**
 * Whether the media tools Cadence shells out to can do their job. ffmpeg and ffprobe are
 * required: without them every upload would be refused as "not a readable video" and nothing could
 * be rendered, so the server refuses to start and /api/health answers 503. yt-dlp only serves the
 * meme detector's YouTube links: without it they are refused with their usual message, uploads
 * still work, and health says 'degraded'.
 */
export type MediaToolName = 'ffmpeg' | 'ffprobe' | 'ytDlp';

export interface MediaToolCheck {
  state: MediaToolState;
  /** For the log only (paths, exit codes, stderr): never sent to clients. */
  detail: string;
}

export type MediaToolsReport = Record<MediaToolName, MediaToolCheck>;

const REQUIRED: readonly MediaToolName[] = ['ffmpeg', 'ffprobe'];
const DISPLAY_NAME: Record<MediaToolName, string> = {
  ffmpeg: 'ffmpeg',
  ffprobe: 'ffprobe',
  ytDlp: 'yt-dlp',
};
const VARIABLE: Record<MediaToolName, string> = {
  ffmpeg: 'FFMPEG_PATH',
  ffprobe: 'FFPROBE_PATH',
  ytDlp: 'YTDLP_PATH',
};

/** A check that hangs (a wedged binary, a full disk) is killed and reported, not awaited forever. */
const CHECK_RUN: ToolRunOptions = {
  timeoutMs: 20_000,
  maxStdoutBytes: 64 * 1024,
  maxStderrBytes: 4096,
};

const runCheck = (binary: string, args: string[]) => runTool(binary, args, CHECK_RUN);

function describeRun(binary: string, args: string[], run: ToolExit): string {
  const command = `${binary} ${args.join(' ')}`;
  if (run.spawnError) return `${command}: ${run.spawnError.code ?? run.spawnError.message}`;
  const output = run.stderr.trim().split('\n').slice(-3).join(' | ');
  return `${command} exited with ${String(run.code)}${output ? `: ${output}` : ''}`;
}

async function checkVersion(
  binary: string,
  args: string[],
  looksRight: (stdout: string) => boolean,
): Promise<MediaToolCheck> {
  const run = await runCheck(binary, args);
  if (run.spawnError?.code === 'ENOENT' || run.spawnError?.code === 'EACCES') {
    return { state: 'missing', detail: describeRun(binary, args, run) };
  }
  if (run.code !== 0 || !looksRight(run.stdout)) {
    return { state: 'broken', detail: describeRun(binary, args, run) };
  }
  return { state: 'ok', detail: run.stdout.split('\n')[0]?.trim() ?? '' };
}

/**
 * ffmpeg encodes half a second of H.264/AAC MP4 (what renders produce), ffprobe reads its streams
 * back, ffmpeg decodes it: a tool that answers -version can still lack an encoder or a library.
 */
async function checkRoundTrip(
  media: Config['media'],
): Promise<{ tool: 'ffmpeg' | 'ffprobe'; detail: string } | null> {
  const directory = await mkdtemp(path.join(os.tmpdir(), 'cadence-media-check-'));
  const file = path.join(directory, 'check.mp4');
  try {
    const encodeArgs = [
      ...['-hide_banner', '-nostdin', '-loglevel', 'error'],
      ...['-f', 'lavfi', '-i', 'color=c=black:s=64x64:r=10:d=0.5'],
      ...['-f', 'lavfi', '-i', 'anullsrc=r=44100:cl=mono'],
      ...['-t', '0.5', '-c:v', 'libx264', '-pix_fmt', 'yuv420p', '-c:a', 'aac'],
      ...['-f', 'mp4', '-y', file],
    ];
    const encode = await runCheck(media.ffmpegPath, encodeArgs);
    const size = (await stat(file).catch(() => null))?.size ?? 0;
    if (encode.code !== 0 || size === 0) {
      return { tool: 'ffmpeg', detail: describeRun(media.ffmpegPath, encodeArgs, encode) };
    }
    const probeArgs = ['-v', 'error', '-show_entries', 'stream=codec_type', '-of', 'csv=p=0', file];
    const probe = await runCheck(media.ffprobePath, probeArgs);
    const streams = probe.stdout.split('\n').map((line) => line.trim());
    if (probe.code !== 0 || !streams.includes('video') || !streams.includes('audio')) {
      return { tool: 'ffprobe', detail: describeRun(media.ffprobePath, probeArgs, probe) };
    }
    const decodeArgs = ['-v', 'error', '-nostdin', '-i', file, '-f', 'null', '-'];
    const decode = await runCheck(media.ffmpegPath, decodeArgs);
    if (decode.code !== 0) {
      return { tool: 'ffmpeg', detail: describeRun(media.ffmpegPath, decodeArgs, decode) };
    }
    return null;
  } finally {
    await rm(directory, { recursive: true, force: true });
  }
}

/** Runs each tool's version check; with `roundTrip`, also a real encode, probe and decode. */
export async function checkMediaTools(
  media: Config['media'],
  { roundTrip = false }: { roundTrip?: boolean } = {},
): Promise<MediaToolsReport> {
  const [ffmpeg, ffprobe, ytDlp] = await Promise.all([
    checkVersion(media.ffmpegPath, ['-hide_banner', '-version'], (out) =>
      out.startsWith('ffmpeg version'),
    ),
    checkVersion(media.ffprobePath, ['-hide_banner', '-version'], (out) =>
      out.startsWith('ffprobe version'),
    ),
    checkVersion(media.ytDlpPath, ['--version'], (out) => out.trim() !== ''),
  ]);
  const report: MediaToolsReport = { ffmpeg, ffprobe, ytDlp };
  if (roundTrip && ffmpeg.state === 'ok' && ffprobe.state === 'ok') {
    const failure = await checkRoundTrip(media);
    if (failure) report[failure.tool] = { state: 'broken', detail: failure.detail };
  }
  return report;
}

/** The problems a report shows, in words safe for a public health answer (no paths). */
export function mediaToolProblems(report: MediaToolsReport): {
  fatal: string[];
  degraded: string[];
} {
  const fatal: string[] = [];
  const degraded: string[] = [];
  for (const name of ['ffmpeg', 'ffprobe', 'ytDlp'] as const) {
    const { state } = report[name];
    if (state === 'ok') continue;
    const problem = `${DISPLAY_NAME[name]} is ${state === 'missing' ? 'missing' : 'not working'}`;
    if (REQUIRED.includes(name)) fatal.push(problem);
    else degraded.push(`${problem}: YouTube links are disabled`);
  }
  return { fatal, degraded };
}

type ToolLogger = Pick<FastifyBaseLogger, 'fatal' | 'error' | 'warn'>;

/** Log lines naming the variable to fix, for the operator. */
function logReport(report: MediaToolsReport, logger: ToolLogger, starting: boolean): void {
  for (const name of ['ffmpeg', 'ffprobe', 'ytDlp'] as const) {
    const { state, detail } = report[name];
    if (state === 'ok') continue;
    const required = REQUIRED.includes(name);
    const message = required
      ? `${DISPLAY_NAME[name]} is ${state}: install ffmpeg (Debian: apt-get install ffmpeg) or set ${VARIABLE[name]}`
      : `${DISPLAY_NAME[name]} is ${state}: YouTube links in the meme detector are disabled until it is installed (or ${VARIABLE[name]} set)`;
    if (required && starting) logger.fatal({ tool: DISPLAY_NAME[name], state, detail }, message);
    else if (required) logger.error({ tool: DISPLAY_NAME[name], state, detail }, message);
    else logger.warn({ tool: DISPLAY_NAME[name], state, detail }, message);
  }
}

/**
 * For the server and worker entry points, before they open anything: logs what is wrong and exits 1
 * when ffmpeg or ffprobe cannot do their job; a missing yt-dlp is only logged.
 */
export async function requireMediaToolsOrExit(
  media: Config['media'],
  logger: Logger,
): Promise<MediaToolsReport> {
  const report = await checkMediaTools(media, { roundTrip: true });
  logReport(report, logger, true);
  if (mediaToolProblems(report).fatal.length > 0) {
    logger.flush();
    process.exit(1);
  }
  return report;
}

/**
 * What /api/health reports: the version checks again at most once a minute, answered from the last
 * result meanwhile so a load balancer's checks never wait for them. A change is logged once.
 */
export function createMediaToolsMonitor(
  media: Config['media'],
  logger: ToolLogger,
  { maxAgeMs = 60_000 }: { maxAgeMs?: number } = {},
) {
  let last: { report: MediaToolsReport; at: number } | null = null;
  let running: Promise<MediaToolsReport> | null = null;
  const refresh = (): Promise<MediaToolsReport> => {
    running ??= checkMediaTools(media)
      .then((report) => {
        const changed =
          last === null ||
          (['ffmpeg', 'ffprobe', 'ytDlp'] as const).some(
            (name) => last?.report[name].state !== report[name].state,
          );
        if (changed && last !== null) logReport(report, logger, false);
        last = { report, at: Date.now() };
        return report;
      })
      .finally(() => {
        running = null;
      });
    return running;
  };
  return {
    async current(): Promise<MediaToolsReport> {
      if (last === null) return refresh();
      if (Date.now() - last.at > maxAgeMs) void refresh();
      return last.report;
    },
  };
}
