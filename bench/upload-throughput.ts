/**
 * Upload benchmark: one large file through tus (the browser's protocol) to the compiled server
 * (`apps/server/dist/main.js`, as `npm start` runs it) in a child process over loopback, streamed
 * from disk in 64 MiB PATCHes (never held in memory), against a plain streamed copy of the same
 * file on the same disk in the same run. Prints MB/s for both, their ratio (target ≥ 0.5) and the
 * server's peak RSS from /proc/<pid>/status VmHWM (target < 200 MB). The server runs once on
 * PostgreSQL (the upload's own memory, no WASM database in the process) and once on embedded
 * PGlite, whose WASM heap alone is several hundred MB.
 * `npx tsx bench/upload-throughput.ts [--mib 1024] [--quick] [--database postgres|pglite|both]`
 */
import { spawn } from 'node:child_process';
import { request } from 'node:http';
import { randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream, mkdtempSync, rmSync } from 'node:fs';
import { open, readFile, rm, stat } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { openTestDatabase } from '../apps/server/src/test-support/database.ts';
import { ensureServerBuild } from '../scripts/server-build.mjs';

const repoRoot = resolve(import.meta.dirname, '..');
const PATCH_BYTES = 64 * 1024 * 1024;

export interface UploadResult {
  database: 'postgres' | 'pglite';
  bytes: number;
  tusMBps: number;
  copyMBps: number;
  ratio: number;
  serverPeakRssMB: number;
  /** Peak before the upload started (start-up, PGlite): the upload's own cost is the difference. */
  idlePeakRssMB: number;
  finalStatus: number;
}

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

async function peakRssMB(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmHWM:\s+(\d+) kB/.exec(status)?.[1] ?? NaN);
  return kb / 1024;
}

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

/** tus 1.0: create, then PATCH ranges streamed from disk at the server's offset. */
async function tusUploadFromDisk(
  baseUrl: string,
  cookie: string,
  filePath: string,
): Promise<number> {
  const size = (await stat(filePath)).size;
  const created = await fetch(`${baseUrl}/api/uploads`, {
    method: 'POST',
    headers: {
      cookie,
      'tus-resumable': '1.0.0',
      'upload-length': String(size),
      'upload-metadata': `filename ${Buffer.from('bench.mp4').toString('base64')}`,
    },
  });
  if (created.status !== 201)
    throw new Error(`tus create answered ${created.status}: ${await created.text()}`);
  const location = new URL(
    created.headers.get('location') ?? '',
    `${baseUrl}/api/uploads/`,
  ).toString();
  let offset = 0;
  let status = 0;
  while (offset < size) {
    const end = Math.min(size, offset + PATCH_BYTES) - 1;
    // node:http with a piped file stream: the client should cost as little CPU as possible, since
    // it shares this 2-core machine with the server being measured.
    const response = await new Promise<{ status: number; offset: string | undefined }>(
      (done, fail) => {
        const req = request(
          location,
          {
            method: 'PATCH',
            headers: {
              cookie,
              'tus-resumable': '1.0.0',
              'upload-offset': String(offset),
              'content-type': 'application/offset+octet-stream',
              'content-length': String(end - offset + 1),
            },
          },
          (res) => {
            res.resume();
            res.on('end', () => {
              const header = res.headers['upload-offset'];
              done({
                status: res.statusCode ?? 0,
                offset: Array.isArray(header) ? header[0] : header,
              });
            });
          },
        );
        req.on('error', fail);
        pipeline(
          createReadStream(filePath, { start: offset, end, highWaterMark: 1024 * 1024 }),
          req,
        ).catch(fail);
      },
    );
    status = response.status;
    const next = Number(response.offset);
    // The last PATCH may be answered with the media check's refusal: the bytes are in either way.
    if (status !== 204 && end !== size - 1) throw new Error(`tus PATCH answered ${status}`);
    offset = Number.isFinite(next) && next > offset ? next : end + 1;
  }
  return status;
}

async function measure(database: 'postgres' | 'pglite', mib: number): Promise<UploadResult> {
  const bytes = mib * 1024 * 1024;
  const dir = mkdtempSync(join(tmpdir(), 'cadence-upload-bench-'));
  const postgres = database === 'postgres' ? await openTestDatabase('postgres') : null;
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  // The compiled server, as `npm start` runs it (rebuilt first if its sources changed).
  await ensureServerBuild();
  const server = spawn(process.execPath, ['--enable-source-maps', 'apps/server/dist/main.js'], {
    cwd: repoRoot,
    env: {
      ...process.env,
      NODE_ENV: 'production',
      LOG_LEVEL: 'warn',
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: url,
      DATA_DIR: join(dir, 'data'),
      ...(postgres?.url && { DATABASE_URL: postgres.url }),
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  try {
    const source = join(dir, 'source.bin');
    await makeFile(source, bytes);
    await waitForHealth(url, 60_000);
    const signUp = await fetch(`${url}/api/auth/sign-up/email`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: url },
      body: JSON.stringify({ name: 'Bench', email: 'bench@example.com', password: 'secret123' }),
    });
    const cookie = (signUp.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
    if (!signUp.ok || cookie === '') throw new Error(`sign-up failed: ${signUp.status}`);

    // Baseline: the same bytes copied through a Node stream on the same disk.
    const copyStart = performance.now();
    await pipeline(createReadStream(source), createWriteStream(join(dir, 'copy.bin')));
    const copySeconds = (performance.now() - copyStart) / 1000;
    await rm(join(dir, 'copy.bin'));

    const idlePeakRssMB = await peakRssMB(server.pid ?? 0);
    const tusStart = performance.now();
    const finalStatus = await tusUploadFromDisk(url, cookie, source);
    const tusSeconds = (performance.now() - tusStart) / 1000;
    const serverPeakRssMB = await peakRssMB(server.pid ?? 0);
    const megabytes = bytes / 1e6;
    const result: UploadResult = {
      database,
      bytes,
      tusMBps: megabytes / tusSeconds,
      copyMBps: megabytes / copySeconds,
      ratio: copySeconds / tusSeconds,
      serverPeakRssMB,
      idlePeakRssMB,
      finalStatus,
    };
    console.log(
      `Upload (${database}): ${mib} MiB through tus over loopback vs a streamed copy on the same disk`,
    );
    console.log(
      `  tus upload     ${result.tusMBps.toFixed(1).padStart(8)} MB/s (last PATCH answered ${finalStatus})`,
    );
    console.log(`  baseline copy  ${result.copyMBps.toFixed(1).padStart(8)} MB/s`);
    console.log(`  ratio          ${result.ratio.toFixed(2)} (target ≥ 0.5)`);
    console.log(
      `  server peak RSS ${serverPeakRssMB.toFixed(0)} MB (target < 200 MB); ${idlePeakRssMB.toFixed(0)} MB before the upload, +${(serverPeakRssMB - idlePeakRssMB).toFixed(0)} MB during it`,
    );
    return result;
  } finally {
    server.kill('SIGTERM');
    await new Promise((done) => server.once('exit', done));
    await postgres?.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function main(argv: string[] = process.argv.slice(2)): Promise<UploadResult[]> {
  const { values } = parseArgs({
    args: argv,
    allowPositionals: true,
    strict: false,
    options: {
      mib: { type: 'string' },
      quick: { type: 'boolean', default: false },
      database: { type: 'string', default: 'both' },
    },
  });
  const mib = Number(values.mib ?? (values.quick === true ? 128 : 1024));
  const databases: ('postgres' | 'pglite')[] =
    values.database === 'postgres'
      ? ['postgres']
      : values.database === 'pglite'
        ? ['pglite']
        : ['postgres', 'pglite'];
  const results: UploadResult[] = [];
  for (const database of databases) results.push(await measure(database, mib));
  return results;
}

const entry = process.argv[1];
if (entry !== undefined && import.meta.url === pathToFileURL(entry).href) {
  await main();
  process.exit(0);
}
