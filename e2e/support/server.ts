import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { copyPgliteDataDir } from '../../apps/server/src/test-support/database.ts';
import { compiledEntryArgs, requireServerBuild } from '../../scripts/server-build.mjs';

export const repoRoot = path.resolve(import.meta.dirname, '../..');

export interface RunningServer {
  url: string;
  port: number;
  dataDir: string;
  env: NodeJS.ProcessEnv;
  /** Output so far, for failure messages. */
  logs(): string;
  stop(signal?: NodeJS.Signals): Promise<void>;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      if (address === null || typeof address === 'string') return reject(new Error('no port'));
      server.close(() => resolve(address.port));
    });
  });
}

export async function waitFor<TValue>(
  probe: () => Promise<TValue | undefined>,
  { timeoutMs = 30_000, intervalMs = 100, what = 'condition' } = {},
): Promise<TValue> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  while (Date.now() < deadline) {
    try {
      const value = await probe();
      if (value !== undefined) return value;
    } catch (error) {
      lastError = error;
    }
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
  throw new Error(
    `Timed out waiting for ${what}${lastError instanceof Error ? `: ${lastError.message}` : ''}`,
  );
}

/**
 * Node's arguments to run a compiled entry point as `npm start`, `npm run worker` and `npm run
 * admin` do, from any working directory. Build first (`requireServerBuild`/`ensureServerBuild`).
 */
export function compiledEntry(name: 'main' | 'worker' | 'admin'): string[] {
  return compiledEntryArgs(name, repoRoot);
}

/**
 * Starts the real server as production runs it (the compiled `apps/server/dist/main.js`, built SPA)
 * on a free port with its own data dir. Throws, saying to run `npm run build`, when there is no
 * build; rebuilds the server first when its sources changed since, as `npm start` does.
 */
export async function startServer(
  extraEnv: NodeJS.ProcessEnv = {},
  dataDir?: string,
): Promise<RunningServer> {
  await requireServerBuild();
  const port = await freePort();
  const ownDataDir = dataDir ?? mkdtempSync(path.join(os.tmpdir(), 'cadence-e2e-'));
  // A new data dir starts from a copy of a migrated one, as if the server had run before: initdb
  // and the migrations are most of a new server's start.
  if (!dataDir && !extraEnv.DATABASE_URL) await copyPgliteDataDir(ownDataDir);
  const url = `http://127.0.0.1:${port}`;
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    NODE_ENV: 'production',
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_URL: url,
    DATA_DIR: ownDataDir,
    LOG_LEVEL: 'warn',
    ...extraEnv,
  };
  let output = '';
  const child: ChildProcess = spawn(process.execPath, compiledEntry('main'), {
    cwd: repoRoot,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));

  try {
    await Promise.race([
      waitFor(
        async () => {
          const response = await fetch(`${url}/api/health`);
          return response.ok ? true : undefined;
        },
        // Generous: a server starts beside another browser file's server and Chromium, and on a
        // loaded machine that can take a minute. A healthy server ends the wait at once.
        { timeoutMs: 120_000, what: 'the server to be healthy' },
      ),
      exited.then(() => {
        throw new Error(`server exited (${String(child.exitCode)}):\n${output}`);
      }),
    ]);
  } catch (error) {
    child.kill('SIGKILL');
    throw error;
  }

  return {
    url,
    port,
    dataDir: ownDataDir,
    env,
    logs: () => output,
    async stop(signal = 'SIGTERM') {
      if (child.exitCode === null) child.kill(signal);
      await exited;
      if (!dataDir) rmSync(ownDataDir, { recursive: true, force: true });
    },
  };
}

const execFileAsync = promisify(execFile);

/** Runs the compiled admin CLI (`npm run admin`) with the server's environment, e.g. `pro grant`. */
export function runAdmin(
  server: RunningServer,
  ...args: string[]
): Promise<{ stdout: string; stderr: string }> {
  return execFileAsync(process.execPath, [...compiledEntry('admin'), ...args], {
    cwd: repoRoot,
    env: server.env,
  });
}
