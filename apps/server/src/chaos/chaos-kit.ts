// Helpers of the chaos tests (not a test file): worker processes that get SIGKILLed and
// restarted, a seeded generator for the moments, and a sandbox that counts the requests it gets.
import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import Fastify from 'fastify';
import { SandboxState, tiktokSandbox, type SandboxStateOptions } from '@cadence/tiktok-sandbox';
import { compiledEntryArgs, ensureServerBuild } from '../../../../scripts/server-build.mjs';
import { createTikTokClient } from '../tiktok/tiktok-client.ts';
import {
  CLIENT_KEY,
  CLIENT_SECRET,
  REDIRECT_URI,
  type SandboxKit,
} from '../tiktok/sandbox-test-kit.ts';

export const repoRoot = path.resolve(import.meta.dirname, '../../../..');

/** mulberry32: the same seed gives the same kill moments and victims. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** Polls `check` until it holds; throws `what` after `timeoutMs`. */
export async function waitUntil(
  check: () => boolean | Promise<boolean>,
  timeoutMs: number,
  what: string,
  intervalMs = 50,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline)
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

export interface CountingSandboxKit extends SandboxKit {
  /** Requests the sandbox has received so far (every endpoint): the chaos tests' clock. */
  requests(): number;
}

/**
 * The sandbox on an ephemeral port, like startSandboxKit, with a request counter in front of it:
 * kill moments are drawn as request counts, so a kill lands mid-work however fast the machine is.
 */
export async function startCountingSandbox(
  options: Omit<SandboxStateOptions, 'clients'> = {},
): Promise<CountingSandboxKit> {
  const state = new SandboxState({
    ...options,
    clients: [
      {
        clientKey: CLIENT_KEY,
        clientSecret: CLIENT_SECRET,
        redirectUris: [REDIRECT_URI],
        appName: 'Cadence',
      },
    ],
  });
  let requests = 0;
  const app = Fastify({ logger: false });
  app.addHook('onRequest', async () => {
    requests += 1;
  });
  await app.register(tiktokSandbox, { state, prefix: '/sandbox/tiktok' });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  if (typeof address !== 'object' || address === null) throw new Error('sandbox has no port');
  const baseUrl = `http://127.0.0.1:${address.port}/sandbox/tiktok`;
  const clientWith = (overrides: { clientSecret?: string; timeoutMs?: number }) =>
    createTikTokClient({
      clientKey: CLIENT_KEY,
      clientSecret: overrides.clientSecret ?? CLIENT_SECRET,
      authBase: baseUrl,
      apiBase: baseUrl,
      timeoutMs: overrides.timeoutMs ?? 10_000,
    });
  return {
    sandbox: { app, state, baseUrl, close: () => app.close() },
    client: clientWith({}),
    clientWith,
    requests: () => requests,
  };
}

interface WorkerSlot {
  child: ChildProcess;
  ready: boolean;
  exited: Promise<void>;
}

export interface KillRecord {
  /** Epoch ms of the SIGKILL. */
  at: number;
  slot: number;
  pid: number;
}

/**
 * `count` real worker processes — the compiled worker `npm run worker` runs in production
 * (apps/server/dist/worker.js) — that can be SIGKILLed and are restarted at once in the same
 * slot. Call `WorkerPool.prepare()` first: it builds the server when its build is missing or
 * older than the sources, so a run never tests old code. (Under tsx, each start compiled the
 * sources again: 20–50 s per restart on a loaded machine, most of a chaos run's time.)
 */
export class WorkerPool {
  private readonly slots: WorkerSlot[] = [];
  readonly kills: KillRecord[] = [];
  /** When each worker reported ready (epoch ms), in order. */
  readonly readyTimes: number[] = [];
  /** Workers that died without being killed by the pool (a crash the test must report). */
  readonly unexpectedExits: string[] = [];
  /** Last lines of every worker's output, for the failure message. */
  private readonly log: string[] = [];
  /** How often workers logged each of `counted`'s messages (decision record 033's events). */
  readonly logCounts: Record<string, number> = {};

  constructor(
    private readonly env: NodeJS.ProcessEnv,
    private readonly count: number,
    /** Log messages to count across all workers (see logCounts). */
    private readonly counted: readonly string[] = [],
  ) {}

  /** Builds apps/server/dist when it is missing or stale (`npm test` has built it already). */
  static async prepare(): Promise<void> {
    await ensureServerBuild(repoRoot);
  }

  start(): void {
    for (let slot = 0; slot < this.count; slot++) this.slots[slot] = this.spawn();
  }

  private spawn(): WorkerSlot {
    const child = spawn(process.execPath, compiledEntryArgs('worker', repoRoot), {
      cwd: repoRoot,
      env: { ...process.env, ...this.env, TEST_DATABASE: undefined },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const slot: WorkerSlot = {
      child,
      ready: false,
      exited: new Promise((resolve) => child.once('exit', () => resolve())),
    };
    // Its last lines, whatever their level: why a worker died on its own.
    const tail: string[] = [];
    child.once('exit', (code, signal) => {
      if (signal === 'SIGKILL') return;
      this.unexpectedExits.push(`pid ${child.pid}: ${signal ?? code}\n${tail.join('\n')}`);
    });
    const keep = (chunk: Buffer) => {
      const text = chunk.toString();
      if (!slot.ready && text.includes('worker ready')) {
        slot.ready = true;
        this.readyTimes.push(Date.now());
      }
      for (const line of text.split('\n')) {
        if (line.trim() !== '') tail.push(line.slice(0, 1_000));
        if (tail.length > 10) tail.shift();
        for (const message of this.counted) {
          if (line.includes(`"msg":"${message}"`)) {
            this.logCounts[message] = (this.logCounts[message] ?? 0) + 1;
          }
        }
        // Info lines ('post published'…) would drown the warnings worth reading.
        if (line.includes('"level":30') || line.trim() === '') continue;
        this.log.push(`[${child.pid}] ${line.slice(0, 600)}`);
      }
      if (this.log.length > 400) this.log.splice(0, this.log.length - 400);
    };
    child.stdout?.on('data', keep);
    child.stderr?.on('data', keep);
    return slot;
  }

  readyCount(): number {
    return this.slots.filter((slot) => slot.ready).length;
  }

  async waitAllReady(timeoutMs: number): Promise<void> {
    await waitUntil(() => this.readyCount() === this.count, timeoutMs, 'workers ready', 100);
  }

  /**
   * SIGKILLs one worker chosen by `random` among all running ones, ready or still starting (a
   * worker takes jobs before it logs 'worker ready': its start-up sweep can take a while), waits
   * for its death and starts its successor.
   */
  async killOne(random: () => number): Promise<KillRecord> {
    return this.killSlot(Math.floor(random() * this.slots.length));
  }

  /** The pid of each slot's current process. */
  pids(): number[] {
    return this.slots.map((slot) => slot.child.pid ?? -1);
  }

  /** SIGKILLs the worker in `slot`, waits for its death, starts its successor. */
  async killSlot(index: number): Promise<KillRecord> {
    const slot = this.slots[index];
    if (slot === undefined) throw new Error(`no worker slot ${index}`);
    const record: KillRecord = { at: Date.now(), slot: index, pid: slot.child.pid ?? -1 };
    slot.child.kill('SIGKILL');
    await slot.exited;
    this.kills.push(record);
    this.slots[index] = this.spawn();
    return record;
  }

  /** SIGKILLs every worker still running (the end of a run, or a failed test). */
  async stopAll(): Promise<void> {
    for (const slot of this.slots) {
      if (slot.child.exitCode === null && slot.child.signalCode === null) {
        slot.child.kill('SIGKILL');
      }
      await slot.exited;
    }
  }

  output(): string {
    return this.log.join('\n');
  }
}

/** Every file and directory under `dir`, recursively; [] when it does not exist. */
export function filesUnder(dir: string): string[] {
  let entries: string[];
  try {
    entries = readdirSync(dir);
  } catch {
    return [];
  }
  return entries.flatMap((entry) => {
    const full = path.join(dir, entry);
    return statSync(full).isDirectory() ? [full, ...filesUnder(full)] : [full];
  });
}
