import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { compiledEntry, freePort, waitFor } from '../../../../e2e/support/server.ts';
import { ensureServerBuild } from '../../../../scripts/server-build.mjs';
import { copyPgliteDataDir } from './database.ts';

const execFileAsync = promisify(execFile);

/**
 * Node's arguments to run the server's compiled entry point `name` (apps/server/dist), as `npm
 * start`, `npm run worker` and `npm run admin` do, once the build is there and newer than every
 * source (built here when it is not: `npm test` has built it already). Under tsx, each process
 * compiled the sources again: 9-18 s of CPU per server start on a loaded 2-core machine against
 * 6 s compiled, where the tests that start several ran past their minute.
 */
export async function serverEntry(name: 'main' | 'worker' | 'admin'): Promise<string[]> {
  await ensureServerBuild();
  return compiledEntry(name);
}

export interface ServerProcess {
  url: string;
  port: number;
  pid: number;
  env: NodeJS.ProcessEnv;
  /** Output so far, for failure messages. */
  logs(): string;
  /**
   * SIGTERM (graceful) unless told otherwise, SIGKILL after 30 s; resolves with the exit code (null
   * when killed by a signal) once it has exited.
   */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/**
 * The real server (compiled, `serverEntry`) as a child process on a free loopback port, with the
 * given DATA_DIR; resolves once /api/health answers 200, rejects with its output if it exits first.
 * A DATA_DIR without a database yet gets a copy of a migrated one (`copyPgliteDataDir`), as if the
 * server had run there before: initdb and the migrations were most of a start (e2e does the same).
 */
export async function startServerProcess(
  dataDir: string,
  extraEnv: NodeJS.ProcessEnv = {},
): Promise<ServerProcess> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    NODE_ENV: 'test',
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_URL: url,
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    ...extraEnv,
  };
  if (extraEnv.DATABASE_URL === undefined && !existsSync(path.join(dataDir, 'pgdata')))
    await copyPgliteDataDir(dataDir);
  const entry = await serverEntry('main');
  let output = '';
  const child: ChildProcess = spawn(process.execPath, entry, {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => resolve(code)),
  );
  try {
    await Promise.race([
      waitFor(async () => ((await fetch(`${url}/api/health`)).ok ? true : undefined), {
        timeoutMs: 60_000,
        what: 'the server to be healthy',
      }),
      exited.then((code) => {
        throw new Error(`server exited (${String(code)}):\n${output}`);
      }),
    ]);
  } catch (error) {
    child.kill('SIGKILL');
    await exited;
    throw new Error(`${error instanceof Error ? error.message : String(error)}\n${output}`);
  }
  return {
    url,
    port,
    pid: child.pid ?? -1,
    env,
    logs: () => output,
    async stop(signal = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      // A shutdown that hangs must not outlive the test as an orphan holding its DATA_DIR.
      const hung = setTimeout(() => child.kill('SIGKILL'), 30_000);
      try {
        return await exited;
      } finally {
        clearTimeout(hung);
      }
    },
  };
}

/** Runs `npm run admin -- …args` (the compiled CLI) with exactly this environment. */
export async function runAdminProcess(
  env: NodeJS.ProcessEnv,
  ...args: string[]
): Promise<{ stdout: string; stderr: string }> {
  return execFileAsync(process.execPath, [...(await serverEntry('admin')), ...args], { env });
}
