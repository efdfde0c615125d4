/**
 * Upload benchmark: one large file through tus (the browser's protocol) to the compiled server
 * (`apps/server/dist/main.js`, as `npm start` runs it) in a child process over loopback, streamed
 * from disk in 64 MiB PATCHes (never held in memory) by a client in another process
 * (bench/tus-client.ts), against a plain streamed copy of the same
 * file on the same disk. The machine is shared and its disk's write-back uneven, so each round
 * flushes dirty pages (`sync`) before a copy and before an upload, rounds alternate the two, and the
 * ratio compares their medians. The server starts once on an empty DATA_DIR (PGlite's initdb:
 * the first-start peak), then again on the same directory, as every later start is: its idle RSS,
 * then its peak RSS during the upload alone (VmHWM reset through /proc/<pid>/clear_refs) and its
 * CPU seconds per GiB. PostgreSQL and embedded PGlite side by side, with the targets of decision
 * 040: PGlite idle < 300 MB, peak during the upload < 400 MB; upload ≥ 0.8 of the copy on both.
 * `npx tsx bench/upload-throughput.ts [--mib 1024] [--rounds 3] [--quick]
 *  [--database postgres|pglite|both] [--cpu-prof DIR]` (--quick: 128 MiB, one round; --cpu-prof: a
 *  V8 CPU profile of the measured server, per database)
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream, mkdtempSync, rmSync } from 'node:fs';
import { open, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { pathToFileURL } from 'node:url';
import { parseArgs, promisify } from 'node:util';
import { openTestDatabase } from '../apps/server/src/test-support/database.ts';
import { compiledEntryArgs, ensureServerBuild } from '../scripts/server-build.mjs';

const repoRoot = resolve(import.meta.dirname, '..');

export interface UploadResult {
  database: 'postgres' | 'pglite';
  bytes: number;
  rounds: number;
  /** Median over the rounds. */
  tusMBps: number;
  /** The streamed copy, timed before each upload: median over the rounds. */
  copyMBps: number;
  /** Every round's figure, in order: how much the machine moved during the run. */
  tusMBpsRounds: number[];
  copyMBpsRounds: number[];
  ratio: number;
  /** VmHWM of the server's first start on an empty DATA_DIR (PGlite runs initdb then). */
  firstStartPeakRssMB: number;
  /** VmRSS of the restarted server, signed in and idle (the largest of a few samples). */
  idleRssMB: number;
  /** VmHWM during the upload only (the peak is reset through /proc/<pid>/clear_refs first). */
  uploadPeakRssMB: number;
  /** False when the kernel refused the reset: uploadPeakRssMB is then the process's lifetime peak. */
  peakWasReset: boolean;
  /** The server's CPU time (user + system) during the uploads, per GiB: steadier than MB/s under load. */
  serverCpuSecondsPerGiB: number;
  finalStatus: number;
}

export const TARGETS = {
  pgliteIdleRssMB: 300,
  pgliteUploadPeakRssMB: 400,
  ratio: 0.8,
} as const;

async function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const server = createServer();
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => done(port));
    });
  });
}

/** Random-content file written in 16 MiB blocks (no large buffer). */
async function makeFile(path: string, bytes: number): Promise<void> {
  const handle = await open(path, 'w');
  const block = randomBytes(16 * 1024 * 1024);
  try {
    for (let written = 0; written < bytes; written += block.length) {
      await handle.write(block, 0, Math.min(block.length, bytes - written));
    }
  } finally {
    await handle.close();
  }
}

async function statusMB(pid: number, field: 'VmHWM' | 'VmRSS'): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const kb = Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)?.[1] ?? NaN);
  return kb / 1024;
}

/** Resets the process's VmHWM to its current RSS (Linux ≥ 4.0); false when not allowed. */
async function resetPeakRss(pid: number): Promise<boolean> {
  try {
    await writeFile(`/proc/${pid}/clear_refs`, '5');
    return true;
  } catch {
    return false;
  }
}

/** User + system CPU seconds the process has used (/proc/<pid>/stat, USER_HZ = 100 on Linux). */
async function cpuSeconds(pid: number): Promise<number> {
  const fields = (await readFile(`/proc/${pid}/stat`, 'utf8')).split(') ')[1]?.split(' ') ?? [];
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

/** Writes the page cache's dirty pages back, so a timed write does not pay for the one before. */
const flushDirtyPages = () => promisify(execFile)('sync');

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

async function waitForHealth(url: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      const response = await fetch(`${url}/api/health`);
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error('server did not start');
    await new Promise((done) => setTimeout(done, 250));
  }
}

/**
 * The upload, as a browser would make it: from another process. `bench/tus-client.ts` runs in a
 * small Node of its own (tsx, no other module): in this process, whose heap holds the server's test
 * support, its 1 MiB read buffers triggered V8's full collections, ~17 % of the machine's samples
 * during an upload (perf), on the same 2 cores as the server being measured.
 */
async function uploadFromAnotherProcess(
  baseUrl: string,
  cookie: string,
  filePath: string,
): Promise<{ status: number; seconds: number }> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', join(repoRoot, 'bench/tus-client.ts'), baseUrl, filePath],
    // The session cookie goes through the environment, not the command line (`ps` shows that).
    {
      cwd: repoRoot,
      env: { ...process.env, BENCH_COOKIE: cookie },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  let output = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  const code = await new Promise<number | null>((done) => child.once('exit', done));
  if (code !== 0) throw new Error(`the upload client exited with ${code}`);
  return JSON.parse(output) as { status: number; seconds: number };
}

/**
 * The compiled server, as `npm start` runs it (with its Node options), on this DATA_DIR (and
 * PostgreSQL database).
 */
async function startServer(
  dataDir: string,
  databaseUrl: string | null,
  cpuProfileDir?: string,
): Promise<{ url: string; child: ChildProcess; pid: number; stop: () => Promise<void> }> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const profile = cpuProfileDir ? ['--cpu-prof', `--cpu-prof-dir=${cpuProfileDir}`] : [];
  const child = spawn(process.execPath, [...profile, ...compiledEntryArgs('main')], {
    cwd: repoRoot,
    env: {
      ...process.env,
      NODE_ENV: 'production',
      LOG_LEVEL: 'warn',
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: url,
      DATA_DIR: dataDir,
      ...(databaseUrl !== null && { DATABASE_URL: databaseUrl }),
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const exited = new Promise((done) => child.once('exit', done));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
  };
  try {
    await waitForHealth(url, 180_000);
  } catch (error) {
    await stop();
    throw error;
  }
  return { url, child, pid: child.pid ?? 0, stop };
}

async function authCookie(url: string, path: 'sign-up' | 'sign-in'): Promise<string> {
  const response = await fetch(`${url}/api/auth/${path}/email`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: url },
    body: JSON.stringify({
      ...(path === 'sign-up' && { name: 'Bench' }),
      email: 'bench@example.com',
      password: 'secret123',
    }),
  });
  const cookie = (response.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
  if (!response.ok || cookie === '') throw new Error(`${path} failed: ${response.status}`);
  return cookie;
}

/** The same bytes through a Node stream on the same disk: MB/s. */
async function streamedCopy(source: string, target: string, bytes: number): Promise<number> {
  const start = performance.now();
  await pipeline(createReadStream(source), createWriteStream(target));
  const seconds = (performance.now() - start) / 1000;
  await rm(target);
  return bytes / 1e6 / seconds;
}

async function measure(
  database: 'postgres' | 'pglite',
  mib: number,
  rounds: number,
  cpuProfileDir?: string,
): Promise<UploadResult> {
  const bytes = mib * 1024 * 1024;
  const dir = mkdtempSync(join(tmpdir(), 'cadence-upload-bench-'));
  const postgres = database === 'postgres' ? await openTestDatabase('postgres') : null;
  const dataDir = join(dir, 'data');
  // The compiled server, as `npm start` runs it (rebuilt first if its sources changed).
  await ensureServerBuild();
  try {
    const source = join(dir, 'source.bin');
    await makeFile(source, bytes);

    // First start on an empty DATA_DIR (PGlite's initdb), then the start a self-hoster's server
    // makes every other time: its idle RSS and the upload are measured on that one.
    const first = await startServer(dataDir, postgres?.url ?? null);
    let firstStartPeakRssMB: number;
    try {
      await authCookie(first.url, 'sign-up');
      firstStartPeakRssMB = await statusMB(first.pid, 'VmHWM');
    } finally {
      await first.stop();
    }

    const server = await startServer(
      dataDir,
      postgres?.url ?? null,
      cpuProfileDir && join(resolve(cpuProfileDir), database),
    );
    try {
      const cookie = await authCookie(server.url, 'sign-in');
      await sleep(2000);
      let idleRssMB = 0;
      for (let sample = 0; sample < 5; sample++) {
        idleRssMB = Math.max(idleRssMB, await statusMB(server.pid, 'VmRSS'));
        await sleep(400);
      }

      const copy = join(dir, 'copy.bin');
      const peakWasReset = await resetPeakRss(server.pid);
      const copyMBpsRounds: number[] = [];
      const tusMBpsRounds: number[] = [];
      let serverCpuSeconds = 0;
      let finalStatus = 0;
      for (let round = 0; round < rounds; round++) {
        await flushDirtyPages();
        copyMBpsRounds.push(await streamedCopy(source, copy, bytes));
        await flushDirtyPages();
        const cpuBefore = await cpuSeconds(server.pid);
        const upload = await uploadFromAnotherProcess(server.url, cookie, source);
        finalStatus = upload.status;
        tusMBpsRounds.push(bytes / 1e6 / upload.seconds);
        serverCpuSeconds += (await cpuSeconds(server.pid)) - cpuBefore;
      }
      const uploadPeakRssMB = await statusMB(server.pid, 'VmHWM');

      const copyMBps = median(copyMBpsRounds);
      const tusMBps = median(tusMBpsRounds);
      const result: UploadResult = {
        database,
        bytes,
        rounds,
        tusMBps,
        copyMBps,
        tusMBpsRounds,
        copyMBpsRounds,
        ratio: tusMBps / copyMBps,
        firstStartPeakRssMB,
        idleRssMB,
        uploadPeakRssMB,
        peakWasReset,
        serverCpuSecondsPerGiB: serverCpuSeconds / ((rounds * bytes) / 2 ** 30),
        finalStatus,
      };
      const each = (values: number[]) => values.map((value) => value.toFixed(0)).join(', ');
      console.log(
        `Upload (${database}): ${mib} MiB through tus over loopback vs a streamed copy on the same disk, ${rounds} round(s)`,
      );
      console.log(
        `  tus upload     ${tusMBps.toFixed(1).padStart(8)} MB/s median (${each(tusMBpsRounds)}; last PATCH answered ${finalStatus})`,
      );
      console.log(
        `  baseline copy  ${copyMBps.toFixed(1).padStart(8)} MB/s median (${each(copyMBpsRounds)})`,
      );
      return result;
    } finally {
      await server.stop();
    }
  } finally {
    await postgres?.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

const pad = (value: string) => value.padStart(12);

/** Both databases side by side, with the targets of issue 15 (decision 040). */
function printTable(results: UploadResult[], mib: number): void {
  const column = (database: UploadResult['database']) =>
    results.find((result) => result.database === database);
  const rows: [string, (result: UploadResult) => string, string][] = [
    ['first start, peak RSS', (r) => `${r.firstStartPeakRssMB.toFixed(0)} MB`, ''],
    ['idle RSS', (r) => `${r.idleRssMB.toFixed(0)} MB`, `PGlite < ${TARGETS.pgliteIdleRssMB} MB`],
    [
      `peak RSS, ${mib} MiB uploads`,
      (r) => `${r.uploadPeakRssMB.toFixed(0)} MB${r.peakWasReset ? '' : '*'}`,
      `PGlite < ${TARGETS.pgliteUploadPeakRssMB} MB`,
    ],
    ['tus upload', (r) => `${r.tusMBps.toFixed(0)} MB/s`, ''],
    ['streamed copy', (r) => `${r.copyMBps.toFixed(0)} MB/s`, ''],
    ['ratio', (r) => r.ratio.toFixed(2), `≥ ${TARGETS.ratio}`],
    ['server CPU per GiB', (r) => `${r.serverCpuSecondsPerGiB.toFixed(1)} s`, ''],
  ];
  const databases = (['postgres', 'pglite'] as const).filter((d) => column(d) !== undefined);
  console.log(
    `\n${''.padEnd(26)}${databases.map((d) => pad(d === 'postgres' ? 'PostgreSQL' : 'PGlite')).join('')}   target`,
  );
  for (const [label, format, target] of rows) {
    const cells = databases.map((d) => pad(format(column(d)!))).join('');
    console.log(`${label.padEnd(26)}${cells}   ${target}`);
  }
  if (results.some((result) => !result.peakWasReset)) {
    console.log('* the peak could not be reset before the upload: lifetime peak of the process');
  }
  const [load1, load5] = loadavg();
  console.log(`load average ${load1!.toFixed(2)} ${load5!.toFixed(2)} (2 cores shared)`);
}

export async function main(argv: string[] = process.argv.slice(2)): Promise<UploadResult[]> {
  const { values } = parseArgs({
    args: argv,
    allowPositionals: true,
    strict: false,
    options: {
      mib: { type: 'string' },
      rounds: { type: 'string' },
      quick: { type: 'boolean', default: false },
      database: { type: 'string', default: 'both' },
      'cpu-prof': { type: 'string' },
    },
  });
  const mib = Number(values.mib ?? (values.quick === true ? 128 : 1024));
  const rounds = Math.max(1, Number(values.rounds ?? (values.quick === true ? 1 : 3)));
  const databases: ('postgres' | 'pglite')[] =
    values.database === 'postgres'
      ? ['postgres']
      : values.database === 'pglite'
        ? ['pglite']
        : ['postgres', 'pglite'];
  const results: UploadResult[] = [];
  const cpuProfileDir = typeof values['cpu-prof'] === 'string' ? values['cpu-prof'] : undefined;
  for (const database of databases)
    results.push(await measure(database, mib, rounds, cpuProfileDir));
  printTable(results, mib);
  return results;
}

const entry = process.argv[1];
if (entry !== undefined && import.meta.url === pathToFileURL(entry).href) {
  await main();
  process.exit(0);
}
