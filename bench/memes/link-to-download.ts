/**
 * Meme detector, link → download through the real server: the compiled server (as `npm start`
 * runs it: sandbox TikTok, embedded pg-boss worker, the default MEME_COMPILE_PRESET) on PGlite
 * and on PostgreSQL, a Pro user signed up through the API, a YouTube link POSTed as the web app
 * does, GET /api/memes/:id polled until the compilation is ready (each stage's start and end as the
 * API reports it), then the whole MP4 read from the download link. Compared with the engine alone
 * (analysis + thumbnails + compilation on the same local file) measured in the same run.
 *
 * YouTube is out of reach here: this process serves the generated 720p video over loopback and
 * the server is started with YOUTUBE_TEST_ORIGIN pointing there (the operator-only stand-in for
 * YouTube: the link is validated as always, then yt-dlp fetches its video id from that origin as
 * `/<id>.mp4`). YTDLP_PATH is a wrapper that only records when yt-dlp runs and with which URL,
 * then runs the real yt-dlp with its arguments unchanged. The figure excludes YouTube's download
 * speed.
 *
 *   npm run bench -- --only memes-link [--quick] [--database pglite|postgres|both]
 *     [--keep <dir>] [--poll-ms 250] [--ytdlp /usr/bin/yt-dlp] [--ffmpeg …] [--ffprobe …]
 *   (or npx tsx bench/memes/link-to-download.ts …)
 *
 * --quick: a ~30 s video (its compilation is the whole video) on PGlite only, a smoke run of
 * about a minute. --keep caches the generated video in <dir> (evaluate.ts's --keep can share it).
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { createReadStream, createWriteStream } from 'node:fs';
import { chmod, mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import http from 'node:http';
import { createServer, type AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { pathToFileURL } from 'node:url';
import { parseArgs, promisify } from 'node:util';
import {
  isActiveMemeStatus,
  memeAnalysisSchema,
  type MemeAnalysis,
  type MemeStatus,
} from '@cadence/shared/schemas/meme';
import { loadConfig } from '../../apps/server/src/config.ts';
import { parseRange } from '../../apps/server/src/modules/media/routes.ts';
import { openTestDatabase } from '../../apps/server/src/test-support/database.ts';
import { compiledEntryArgs, ensureServerBuild } from '../../scripts/server-build.mjs';
import {
  ensureSpeedVideo,
  measureEngine,
  type CompilePreset,
  type EngineStep,
  type EngineTiming,
} from './engine-speed.ts';

const repoRoot = path.resolve(import.meta.dirname, '../..');
/** The video id the bench's stand-in for YouTube serves. */
const VIDEO_ID = 'cadenceMeme';
/** What the creator pastes; the server checks it and keeps only the id. */
const YOUTUBE_LINK = `https://youtu.be/${VIDEO_ID}?si=bench`;
/** The web app's polling interval for a running analysis (get-meme-analysis.ts). */
const WEB_APP_POLL_MS = 1000;

type Database = 'pglite' | 'postgres';

interface Options {
  quick: boolean;
  databases: Database[];
  keepDir: string | null;
  pollMs: number;
  ytDlpPath: string;
  ffmpegPath: string;
  ffprobePath: string;
}

function parseOptions(argv: string[]): Options {
  const { values } = parseArgs({
    args: argv,
    allowPositionals: true,
    strict: false,
    options: {
      quick: { type: 'boolean', default: false },
      database: { type: 'string' },
      keep: { type: 'string' },
      'poll-ms': { type: 'string' },
      ytdlp: { type: 'string' },
      ffmpeg: { type: 'string' },
      ffprobe: { type: 'string' },
    },
  });
  const quick = values.quick === true;
  const string = (value: unknown) => (typeof value === 'string' ? value : undefined);
  const database = string(values.database) ?? (quick ? 'pglite' : 'both');
  return {
    quick,
    databases:
      database === 'pglite'
        ? ['pglite']
        : database === 'postgres'
          ? ['postgres']
          : ['pglite', 'postgres'],
    keepDir: string(values.keep) ?? null,
    pollMs: Number(string(values['poll-ms']) ?? 250),
    ytDlpPath: string(values.ytdlp) ?? '/usr/bin/yt-dlp',
    ffmpegPath: string(values.ffmpeg) ?? '/usr/bin/ffmpeg',
    ffprobePath: string(values.ffprobe) ?? '/usr/bin/ffprobe',
  };
}

const seconds = (ms: number) => (ms / 1000).toFixed(1);
const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

interface CpuSeconds {
  /** The process itself (utime + stime). */
  own: number;
  /** Its children it has waited for (cutime + cstime): ffmpeg, ffprobe, yt-dlp. */
  children: number;
}

/**
 * CPU seconds of a process and of the children it has reaped, from /proc/<pid>/stat (clock ticks
 * of 1/100 s): steadier than wall time when other work shares the machine. Null without /proc.
 */
async function cpuSeconds(pid: number | 'self'): Promise<CpuSeconds | null> {
  const text = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => null);
  if (text === null) return null;
  // Fields after the command name (which may contain spaces) start at field 3 (state).
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  const [utime, stime, cutime, cstime] = [11, 12, 13, 14].map((index) => Number(fields[index]));
  if (![utime, stime, cutime, cstime].every((ticks) => Number.isFinite(ticks))) return null;
  return { own: (utime! + stime!) / 100, children: (cutime! + cstime!) / 100 };
}

function cpuSince(before: CpuSeconds | null, after: CpuSeconds | null): CpuSeconds | null {
  return before && after
    ? { own: after.own - before.own, children: after.children - before.children }
    : null;
}

const cpuTotal = (cpu: CpuSeconds) => cpu.own + cpu.children;

/** CPU seconds all cores of the machine spent busy so far (/proc/stat), or null without /proc. */
async function machineBusySeconds(): Promise<number | null> {
  const text = await readFile('/proc/stat', 'utf8').catch(() => null);
  // cpu  user nice system idle iowait irq softirq steal …: all but idle and iowait are busy.
  const ticks = /^cpu\s+(.*)$/m
    .exec(text ?? '')?.[1]
    ?.split(/\s+/)
    .slice(0, 8)
    .map(Number);
  if (!ticks || ticks.length < 8 || !ticks.every(Number.isFinite)) return null;
  const busyFields = [0, 1, 2, 5, 6, 7];
  return busyFields.reduce((sum, index) => sum + (ticks[index] ?? 0), 0) / 100;
}

/** The machine's busy CPU seconds and those of the processes measured, at one moment. */
interface CpuSample {
  atMs: number;
  busy: number | null;
  /** Per measured process, in the order asked for. */
  ours: (CpuSeconds | null)[];
}

async function sampleCpu(pids: (number | 'self')[]): Promise<CpuSample> {
  return {
    atMs: Date.now(),
    busy: await machineBusySeconds(),
    ours: await Promise.all(pids.map(cpuSeconds)),
  };
}

/**
 * How many cores other processes kept busy on average between two samples: the machine's busy
 * time minus ours. Other work on a shared machine slows wall times; this says by how much it
 * competed. Null without /proc.
 */
function otherCores(before: CpuSample, after: CpuSample): number | null {
  if (before.busy === null || after.busy === null || after.atMs <= before.atMs) return null;
  let ours = 0;
  for (const [index, cpu] of after.ours.entries()) {
    const spent = cpuSince(before.ours[index] ?? null, cpu);
    if (!spent) return null;
    ours += cpuTotal(spent);
  }
  return Math.max(0, after.busy - before.busy - ours) / ((after.atMs - before.atMs) / 1000);
}

async function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const server = createServer();
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => done(port));
    });
  });
}

interface ServedRequest {
  method: string;
  startMs: number;
  endMs: number | null;
  bytes: number;
}

/**
 * Serves one file over loopback as YouTube's stand-in serves video `videoId` (`/<id>.mp4`; HEAD,
 * single ranges), recording each request's span and bytes.
 */
async function serveVideo(videoPath: string, videoId: string) {
  const size = (await stat(videoPath)).size;
  const name = `${videoId}.mp4`;
  const requests: ServedRequest[] = [];
  const server = http.createServer((request, response) => {
    const served: ServedRequest = {
      method: request.method ?? 'GET',
      startMs: Date.now(),
      endMs: null,
      bytes: 0,
    };
    requests.push(served);
    response.once('close', () => (served.endMs = Date.now()));
    if (request.url !== `/${name}`) {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('File not found');
      return;
    }
    const range = parseRange(request.headers.range, size);
    if (range === 'invalid') {
      response.writeHead(416, { 'content-range': `bytes */${size}` }).end();
      return;
    }
    const { start, end } = range ?? { start: 0, end: size - 1 };
    response.writeHead(range ? 206 : 200, {
      'content-type': 'video/mp4',
      'content-length': end - start + 1,
      'accept-ranges': 'bytes',
      ...(range && { 'content-range': `bytes ${start}-${end}/${size}` }),
    });
    if (request.method === 'HEAD') {
      response.end();
      return;
    }
    const file = createReadStream(videoPath, { start, end });
    file.on('data', (chunk) => (served.bytes += chunk.length));
    pipeline(file, response).catch(() => {
      // yt-dlp's metadata call reads the first bytes and hangs up: not an error here.
    });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  return {
    /** For YOUTUBE_TEST_ORIGIN. */
    origin: `http://127.0.0.1:${port}`,
    url: `http://127.0.0.1:${port}/${name}`,
    size,
    requests,
    async close() {
      server.closeAllConnections();
      await new Promise((done) => server.close(done));
    },
  };
}

/** Single-quotes a string for sh. */
const shellQuote = (value: string) => `'${value.replaceAll("'", `'\\''`)}'`;

/**
 * Writes the YTDLP_PATH wrapper: it logs `<epoch ms>\t<the URL after the first -->` (the server
 * always ends its options with it) so the bench can check what the server asked for, and when,
 * then runs `realYtDlp` with every argument unchanged.
 */
async function writeYtDlpWrapper(params: { dir: string; realYtDlp: string }) {
  const wrapperPath = path.join(params.dir, 'yt-dlp-logged');
  const logPath = path.join(params.dir, 'yt-dlp-logged.log');
  await writeFile(
    wrapperPath,
    `#!/bin/sh
# Cadence memes-link bench: note when yt-dlp runs and for which URL, then run it as asked.
state=options
for arg do
  if [ "$state" = link ]; then
    printf '%s\\t%s\\n' "$(date +%s%3N)" "$arg" >> ${shellQuote(logPath)}
    break
  elif [ "$arg" = -- ]; then
    state=link
  fi
done
exec ${shellQuote(params.realYtDlp)} "$@"
`,
  );
  await chmod(wrapperPath, 0o755);
  return {
    path: wrapperPath,
    /** The runs so far: when (epoch ms) and which URL. */
    async calls(): Promise<{ atMs: number; link: string }[]> {
      const log = await readFile(logPath, 'utf8').catch(() => '');
      return log
        .split('\n')
        .filter((line) => line !== '')
        .map((line) => {
          const [at = '', link = ''] = line.split('\t');
          return { atMs: Number(at), link };
        });
    },
  };
}

interface RunningServer {
  url: string;
  pid: number;
  env: NodeJS.ProcessEnv;
  logs: () => string;
  stop: () => Promise<void>;
}

/** The compiled server, as `npm start` runs it (rebuilt first if its sources changed). */
async function startServer(env: NodeJS.ProcessEnv, url: string): Promise<RunningServer> {
  await ensureServerBuild();
  let output = '';
  const child: ChildProcess = spawn(process.execPath, compiledEntryArgs('main', repoRoot), {
    cwd: repoRoot,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const keep = (chunk: Buffer) => (output = (output + chunk.toString()).slice(-64 * 1024));
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  const deadline = Date.now() + 60_000;
  let healthy = false;
  while (!healthy) {
    if (child.exitCode !== null) throw new Error(`the server exited at start:\n${output}`);
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`the server did not answer /api/health within 60 s:\n${output}`);
    }
    healthy = await fetch(`${url}/api/health`).then(
      (response) => response.ok,
      () => false,
    );
    if (!healthy) await sleep(250);
  }
  return {
    url,
    pid: child.pid ?? 0,
    env,
    logs: () => output,
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

/** Signs a creator up through the API, then makes them Pro with `npm run admin -- pro grant`. */
async function signUpPro(server: RunningServer): Promise<string> {
  const email = 'creator@example.com';
  const signUp = await fetch(`${server.url}/api/auth/sign-up/email`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: server.url },
    body: JSON.stringify({ name: 'Creator', email, password: 'secret123' }),
  });
  const cookie = signUp.headers
    .getSetCookie()
    .map((header) => header.split(';')[0])
    .join('; ');
  if (!signUp.ok || cookie === '') throw new Error(`sign-up answered ${signUp.status}`);
  // The compiled admin CLI with the server's environment (with PGlite it asks the running server).
  await promisify(execFile)(
    process.execPath,
    ['--enable-source-maps', 'apps/server/dist/admin.js', 'pro', 'grant', email],
    { cwd: repoRoot, env: server.env },
  );
  const check = await fetch(`${server.url}/api/memes`, { headers: { cookie } });
  if (!check.ok) throw new Error(`GET /api/memes answered ${check.status} after the Pro grant`);
  return cookie;
}

interface Observation {
  /** When the answer arrived (epoch ms). */
  atMs: number;
  analysis: MemeAnalysis;
  cpu: CpuSample;
}

/** The API's stages of a link, in order. */
const STAGES = ['queued', 'downloading', 'analysing', 'compiling', 'completed'] as const;

export interface StageSpan {
  status: (typeof STAGES)[number];
  /** The first answer with this status; null if none did. */
  seen: Observation | null;
  /** The first answer with a later status (null for 'completed', or when none came). */
  end: Observation | null;
}

/**
 * Each stage from the first answer that reported it to the first that reported a later one
 * (pure). A stage shorter than a poll may never be seen: its span is null, and the previous
 * stage then ends where the next seen one starts.
 */
export function stageSpans(observations: Observation[]): StageSpan[] {
  const firstSeen = new Map<MemeStatus, Observation>();
  for (const observation of observations) {
    if (!firstSeen.has(observation.analysis.status)) {
      firstSeen.set(observation.analysis.status, observation);
    }
  }
  return STAGES.map((status, index) => ({
    status,
    seen: firstSeen.get(status) ?? null,
    end:
      STAGES.slice(index + 1)
        .map((next) => firstSeen.get(next))
        .find((observation) => observation !== undefined) ?? null,
  }));
}

interface LinkRun {
  database: Database;
  /** When the link was sent (epoch ms), and what the CPUs had done by then. */
  start: CpuSample;
  acceptedAtMs: number;
  spans: StageSpan[];
  extractsListed: Observation | null;
  completed: Observation;
  /** The MP4 read through the download link. */
  end: CpuSample;
  downloadedBytes: number;
  result: NonNullable<MemeAnalysis['result']>;
  /** The server process and the tools it ran, link → download. */
  serverCpu: CpuSeconds | null;
  ytDlpCalls: { atMs: number; link: string }[];
  served: ServedRequest[];
}

/** One creator's path on a fresh server: link in, polled to the end, the MP4 read out. */
async function runOnce(params: {
  database: Database;
  options: Options;
  workDir: string;
  video: Awaited<ReturnType<typeof serveVideo>>;
  timeoutMs: number;
}): Promise<LinkRun> {
  const { database, options, workDir, video, timeoutMs } = params;
  const runDir = await mkdtemp(path.join(workDir, `link-${database}-`));
  const postgres = database === 'postgres' ? await openTestDatabase('postgres') : null;
  const wrapper = await writeYtDlpWrapper({ dir: runDir, realYtDlp: options.ytDlpPath });
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  // No inherited configuration (MEME_COMPILE_PRESET, DATABASE_URL…): what users get by default.
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    NODE_ENV: 'production',
    LOG_LEVEL: 'warn',
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_URL: url,
    DATA_DIR: path.join(runDir, 'data'),
    FFMPEG_PATH: options.ffmpegPath,
    FFPROBE_PATH: options.ffprobePath,
    YTDLP_PATH: wrapper.path,
    YOUTUBE_TEST_ORIGIN: video.origin,
    ...(postgres?.url && { DATABASE_URL: postgres.url }),
  };
  let server: RunningServer | undefined;
  try {
    server = await startServer(env, url);
    const cookie = await signUpPro(server);
    // Ours: the server with its tools, and this process (the 'YouTube' and the 'browser').
    const serverPid = server.pid;
    const sample = () => sampleCpu([serverPid, 'self']);
    video.requests.length = 0;
    const start = await sample();
    const created = await fetch(`${url}/api/memes`, {
      method: 'POST',
      headers: { cookie, 'content-type': 'application/json' },
      body: JSON.stringify({ source: { type: 'youtube', url: YOUTUBE_LINK }, layout: 'crop' }),
    });
    const acceptedAtMs = Date.now();
    if (created.status !== 201) {
      throw new Error(`POST /api/memes answered ${created.status}: ${await created.text()}`);
    }
    let latest = memeAnalysisSchema.parse(await created.json());
    const observations: Observation[] = [
      { atMs: acceptedAtMs, analysis: latest, cpu: await sample() },
    ];
    const deadline = start.atMs + timeoutMs;
    while (isActiveMemeStatus(latest.status)) {
      if (Date.now() > deadline) {
        throw new Error(
          `still '${latest.status}' after ${seconds(timeoutMs)} s:\n${server.logs()}`,
        );
      }
      await sleep(options.pollMs);
      const response = await fetch(`${url}/api/memes/${latest.id}`, { headers: { cookie } });
      if (!response.ok) throw new Error(`GET /api/memes/${latest.id} answered ${response.status}`);
      latest = memeAnalysisSchema.parse(await response.json());
      observations.push({ atMs: Date.now(), analysis: latest, cpu: await sample() });
    }
    const completed = observations.at(-1)!;
    const result = latest.result;
    if (latest.status !== 'completed' || result === null) {
      throw new Error(
        `the analysis ended '${latest.status}' (${latest.failReason ?? 'no reason'}):\n${server.logs()}`,
      );
    }
    // The 'Télécharger' link: the whole MP4 to disk, as the browser saves it.
    const download = await fetch(`${url}${result.fileUrl}?download=1`, { headers: { cookie } });
    if (!download.ok || download.body === null) {
      throw new Error(`the download link answered ${download.status}`);
    }
    if (!/^attachment;/.test(download.headers.get('content-disposition') ?? '')) {
      throw new Error('the download link is not served as an attachment');
    }
    const savedPath = path.join(runDir, 'downloaded.mp4');
    await pipeline(Readable.fromWeb(download.body), createWriteStream(savedPath));
    const end = await sample();
    const downloadedBytes = (await stat(savedPath)).size;
    if (downloadedBytes !== result.sizeBytes) {
      throw new Error(`downloaded ${downloadedBytes} bytes, the API said ${result.sizeBytes}`);
    }
    const ytDlpCalls = await wrapper.calls();
    // The pasted link's id and nothing else: what YOUTUBE_TEST_ORIGIN makes of the canonical URL.
    if (ytDlpCalls.length === 0 || ytDlpCalls.some((call) => call.link !== video.url)) {
      throw new Error(`the server did not run yt-dlp for ${video.url} only`);
    }
    return {
      database,
      start,
      acceptedAtMs,
      spans: stageSpans(observations),
      extractsListed: observations.find((o) => o.analysis.extracts.length > 0) ?? null,
      completed,
      end,
      downloadedBytes,
      result,
      serverCpu: cpuSince(start.ours[0] ?? null, end.ours[0] ?? null),
      ytDlpCalls,
      served: [...video.requests],
    };
  } finally {
    await server?.stop();
    await postgres?.close();
    await rm(runDir, { recursive: true, force: true });
  }
}

const cpuText = (cpu: CpuSeconds) =>
  `${cpuTotal(cpu).toFixed(1)} CPU s (node ${cpu.own.toFixed(1)} + tools ${cpu.children.toFixed(1)})`;
const coresText = (cores: number | null) => (cores === null ? '—' : cores.toFixed(1));

type EngineRun = EngineTiming & {
  /** CPU samples at the start and after each step. */
  samples: Map<'start' | EngineStep, CpuSample>;
  cpu: CpuSeconds | null;
};

const stepSeconds = (engine: EngineTiming, step: EngineStep) =>
  ({
    analysis: engine.analysisSeconds,
    thumbnails: engine.thumbnailSeconds,
    compilation: engine.compileSeconds,
  })[step];

/** Other processes' cores during an engine step (or the whole run for 'total'). */
function engineOtherCores(engine: EngineRun, step: EngineStep | 'total'): number | null {
  const steps: ('start' | EngineStep)[] = ['start', 'analysis', 'thumbnails', 'compilation'];
  const from = step === 'total' ? 'start' : steps[steps.indexOf(step) - 1];
  const before = from && engine.samples.get(from);
  const after = engine.samples.get(step === 'total' ? 'compilation' : step);
  return before && after ? otherCores(before, after) : null;
}

function printRun(run: LinkRun, engine: EngineRun, preset: CompilePreset, pollMs: number): void {
  const span = (status: StageSpan['status']) => run.spans.find((s) => s.status === status);
  const since = (atMs: number | null) => (atMs === null ? null : atMs - run.start.atMs);
  const at = (ms: number | null) => (ms === null ? '—' : seconds(ms)).padStart(7);
  /** Label, start and end (s since the link was sent), length, others' cores, then the rest. */
  const row = (
    label: string,
    startMs: number | null,
    endMs: number | null,
    others: number | null,
    rest = '',
  ) => {
    const length = startMs !== null && endMs !== null ? seconds(endMs - startMs) : '—';
    console.log(
      `  ${label.padEnd(36)}${at(startMs)}${at(endMs)}${length.padStart(8)}` +
        `${coresText(others).padStart(8)}  ${rest}`.trimEnd(),
    );
  };
  const versus = (lengthMs: number | null, engineSeconds: number, engineOthers: number | null) =>
    lengthMs === null
      ? ''
      : `│${engineSeconds.toFixed(1).padStart(8)}${coresText(engineOthers).padStart(8)}` +
        `   ×${(lengthMs / 1000 / engineSeconds).toFixed(2)}`;
  const stage = (label: string, status: StageSpan['status'], engineSteps: EngineStep[] = []) => {
    const { seen = null, end = null } = span(status) ?? {};
    const startMs = since(seen?.atMs ?? null);
    const endMs = since(end?.atMs ?? null);
    const others = seen && end ? otherCores(seen.cpu, end.cpu) : null;
    if (seen === null) {
      row(label, null, null, null, `not seen: shorter than one poll (${pollMs} ms)`);
    } else if (engineSteps.length === 0) {
      row(label, startMs, endMs, others);
    } else {
      const engineSeconds = engineSteps
        .map((step) => stepSeconds(engine, step))
        .reduce((sum, value) => sum + value, 0);
      // One step's contention, or the two steps' weighted by their length.
      const engineOthers = engineSteps
        .map((step) => (engineOtherCores(engine, step) ?? NaN) * stepSeconds(engine, step))
        .reduce((sum, value) => sum + value, 0);
      row(
        label,
        startMs,
        endMs,
        others,
        versus(
          startMs !== null && endMs !== null ? endMs - startMs : null,
          engineSeconds,
          Number.isNaN(engineOthers) ? null : engineOthers / engineSeconds,
        ),
      );
    }
  };

  console.log(
    `\nLink → download through the real server: ${run.database}, embedded worker, ` +
      `MEME_COMPILE_PRESET unset (the default, ${preset})`,
  );
  console.log(
    `  ${'as GET /api/memes/:id reports it'.padEnd(36)}  start    end    secs  others  │  engine  others   ratio`,
  );
  row('POST /api/memes → 201', 0, since(run.acceptedAtMs), null);
  stage('queued (until the worker claims it)', 'queued');
  stage('downloading (yt-dlp, then storage)', 'downloading');
  const [firstCall, secondCall] = run.ytDlpCalls;
  if (firstCall && secondCall) {
    row('  yt-dlp metadata run', since(firstCall.atMs), since(secondCall.atMs), null);
  }
  const body = run.served.reduce<ServedRequest | null>(
    (largest, request) => (largest === null || request.bytes > largest.bytes ? request : largest),
    null,
  );
  if (body && body.endMs !== null) {
    const mb = body.bytes / 1e6;
    row(
      '  video body over loopback',
      since(body.startMs),
      since(body.endMs),
      null,
      `${mb.toFixed(0)} MB at ${(mb / ((body.endMs - body.startMs) / 1000)).toFixed(0)} MB/s`,
    );
  }
  stage('analysing (+ thumbnails)', 'analysing', ['analysis', 'thumbnails']);
  stage('compiling (+ storing the result)', 'compiling', ['compilation']);
  row(
    'reading the MP4 (GET …?download=1)',
    since(run.completed.atMs),
    since(run.end.atMs),
    otherCores(run.completed.cpu, run.end),
    `${(run.downloadedBytes / 1e6).toFixed(1)} MB, ${run.result.width}x${run.result.height}, ` +
      `${run.result.durationSeconds.toFixed(2)} s`,
  );
  console.log(
    `  link → extracts in the API         ${at(since(run.extractsListed?.atMs ?? null))} s` +
      '  (status compiling; the web app lists them with the finished compilation)',
  );
  console.log(`  link → compilation ready           ${at(since(run.completed.atMs))} s`);
  const totalMs = run.end.atMs - run.start.atMs;
  console.log(
    `  link → download finished           ${at(totalMs)} s, others ${coresText(otherCores(run.start, run.end))} cores` +
      ` │ engine only ${engine.totalSeconds.toFixed(1)} s, others ${coresText(engineOtherCores(engine, 'total'))}` +
      ` cores: pipeline overhead ratio ×${(totalMs / 1000 / engine.totalSeconds).toFixed(2)}`,
  );
  if (run.serverCpu && engine.cpu) {
    console.log(
      `  CPU, link → download: server ${cpuText(run.serverCpu)} │ engine only ${cpuText(engine.cpu)}` +
        `: ×${(cpuTotal(run.serverCpu) / cpuTotal(engine.cpu)).toFixed(2)}` +
        // PGlite runs inside the server process; PostgreSQL's backends are processes of their own.
        (run.database === 'postgres' ? ' (PostgreSQL itself not counted: it is under others)' : ''),
    );
  }
  console.log(
    `  (times in s since the link was sent; a stage's edges are the first poll answers showing it ` +
      `and the next one, polled every ${pollMs} ms (the web app polls every ${WEB_APP_POLL_MS} ms, ` +
      `so a person sees each change up to that much later); 'others': cores other processes kept ` +
      `busy meanwhile, which slows wall times on a shared machine)`,
  );
}

/** What a server configured with nothing but its data directory compiles with. */
async function defaultCompilePreset(): Promise<CompilePreset> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'cadence-memes-link-config-'));
  try {
    return loadConfig({ DATA_DIR: dataDir }).memes.compilePreset;
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
}

/** The engine alone on the same file, in this process: the baseline of the comparison. */
async function timeEngine(
  options: Options,
  videoPath: string,
  workDir: string,
  preset: CompilePreset,
): Promise<EngineRun> {
  const engineDir = await mkdtemp(path.join(workDir, 'engine-'));
  try {
    const samples: EngineRun['samples'] = new Map();
    const timing = await measureEngine({
      ffmpegPath: options.ffmpegPath,
      ffprobePath: options.ffprobePath,
      videoPath,
      workDir: engineDir,
      preset,
      mark: async (edge) => void samples.set(edge, await sampleCpu(['self'])),
    });
    const first = samples.get('start')?.ours[0] ?? null;
    const last = samples.get('compilation')?.ours[0] ?? null;
    const engine: EngineRun = { ...timing, samples, cpu: cpuSince(first, last) };
    console.log(
      `\nEngine only on the same file (${engine.durationSeconds.toFixed(0)} s, ` +
        `${engine.extractCount} extract${engine.extractCount === 1 ? '' : 's'}; 'crop' ` +
        `compilation, ${preset} preset):`,
    );
    console.log(
      `  analysis ${engine.analysisSeconds.toFixed(1)} s + thumbnails ${engine.thumbnailSeconds.toFixed(1)} s + ` +
        `compilation ${engine.compileSeconds.toFixed(1)} s = ${engine.totalSeconds.toFixed(1)} s` +
        (engine.cpu ? `; ${cpuText(engine.cpu)}` : ''),
    );
    return engine;
  } finally {
    await rm(engineDir, { recursive: true, force: true });
  }
}

export async function main(
  argv: string[] = process.argv.slice(2),
): Promise<{ engine: EngineRun; run: LinkRun }[]> {
  const options = parseOptions(argv);
  const workDir =
    options.keepDir ?? (await mkdtemp(path.join(os.tmpdir(), 'cadence-memes-link-bench-')));
  await mkdir(workDir, { recursive: true });
  const results: { engine: EngineRun; run: LinkRun }[] = [];
  try {
    const video = await ensureSpeedVideo({
      ffmpegPath: options.ffmpegPath,
      workDir,
      length: options.quick ? 'short' : 'full',
    });
    const served = await serveVideo(video.videoPath, VIDEO_ID);
    try {
      const preset = await defaultCompilePreset();
      console.log(
        `Source: ${path.basename(video.videoPath)}, 1280x720 H.264 ~2 Mbit/s, ` +
          `${(served.size / 1e6).toFixed(0)} MB; ${os.cpus().length} cores.\n` +
          `The network hop is loopback: the link ${YOUTUBE_LINK} is fetched by ` +
          `${options.ytDlpPath} from ${served.url} (YOUTUBE_TEST_ORIGIN), so the figures ` +
          `exclude YouTube's download speed. yt-dlp's generic extractor gives no duration for ` +
          `a direct link; the analysis probes it.`,
      );
      for (const database of options.databases) {
        // The baseline right before each server run: both see about the same machine load.
        const engine = await timeEngine(options, video.videoPath, workDir, preset);
        // A 10-minute video takes about a minute on 2 idle cores; allow for a loaded machine.
        const timeoutMs = Math.max(120_000, engine.totalSeconds * 1000 * 10);
        const run = await runOnce({ database, options, workDir, video: served, timeoutMs });
        printRun(run, engine, preset, options.pollMs);
        results.push({ engine, run });
      }
    } finally {
      await served.close();
    }
  } finally {
    if (!options.keepDir) await rm(workDir, { recursive: true, force: true });
  }
  return results;
}

const entry = process.argv[1];
if (entry !== undefined && import.meta.url === pathToFileURL(entry).href) {
  await main();
  process.exit(0);
}
