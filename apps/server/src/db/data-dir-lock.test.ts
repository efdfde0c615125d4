import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase } from './client.ts';
import {
  acquireDataDirLock,
  DataDirLockedError,
  lockFileFor,
  processIdentity,
  type LockOwner,
} from './data-dir-lock.ts';

const lockModule = path.join(import.meta.dirname, 'data-dir-lock.ts');
const directories: string[] = [];
afterEach(() => {
  for (const directory of directories.splice(0))
    rmSync(directory, { recursive: true, force: true });
});

function freshDataDir(): string {
  const directory = mkdtempSync(path.join(os.tmpdir(), 'cadence-lock-'));
  directories.push(directory);
  return path.join(directory, 'pgdata');
}

interface Contender {
  pid: number;
  /** 'locked' or the DataDirLockedError message, as the child printed it. */
  outcome: Promise<string>;
  /** Ends the child without releasing anything, as a crash would. */
  kill(): Promise<void>;
}

/** Another process that tries to take the lock once, reports, and then holds it until killed. */
function contender(dataDir: string): Contender {
  const script = `
    import { acquireDataDirLock } from ${JSON.stringify(lockModule)};
    try { acquireDataDirLock(${JSON.stringify(dataDir)}); console.log('locked'); }
    catch (error) { console.log(error.message); }
    setInterval(() => {}, 1000);`;
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const outcome = new Promise<string>((resolve, reject) => {
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('\n')) resolve(output.trim());
    });
    void exited.then(() => reject(new Error(`contender exited early: ${output}`)));
  });
  return {
    pid: child.pid ?? -1,
    outcome,
    async kill() {
      child.kill('SIGKILL');
      await exited;
    },
  };
}

function writeLock(dataDir: string, owner: Partial<LockOwner>): void {
  const lock: LockOwner = {
    pid: process.pid,
    hostname: os.hostname(),
    processIdentity: processIdentity(process.pid),
    startedAt: new Date().toISOString(),
    command: 'node apps/server/dist/main.js',
    nonce: 'a1b2c3',
    ...owner,
  };
  writeFileSync(lockFileFor(dataDir), JSON.stringify(lock));
}

describe('the PGlite data directory lock', () => {
  it('lets one owner in at a time, even within one process, and names it to the others', () => {
    const dataDir = freshDataDir();
    const lock = acquireDataDirLock(dataDir);
    expect(JSON.parse(readFileSync(lockFileFor(dataDir), 'utf8'))).toMatchObject({
      pid: process.pid,
      hostname: os.hostname(),
    });
    expect(() => acquireDataDirLock(dataDir)).toThrow(
      expect.objectContaining({
        name: 'DataDirLockedError',
        message: expect.stringContaining(`in use by process ${process.pid}`) as unknown,
      }),
    );
    lock.release();
    expect(existsSync(lockFileFor(dataDir))).toBe(false);
    acquireDataDirLock(dataDir).release();
  });

  it('refuses while another process holds it, and takes it over once that process has died', async () => {
    const dataDir = freshDataDir();
    const holder = contender(dataDir);
    expect(await holder.outcome).toBe('locked');
    try {
      expect(() => acquireDataDirLock(dataDir)).toThrow(`in use by process ${holder.pid}`);
    } finally {
      await holder.kill(); // SIGKILL: the lock file stays behind, naming a dead pid
    }
    expect(JSON.parse(readFileSync(lockFileFor(dataDir), 'utf8'))).toMatchObject({
      pid: holder.pid,
    });
    const lock = acquireDataDirLock(dataDir);
    expect(lock.owner.pid).toBe(process.pid);
    lock.release();
  });

  it.runIf(processIdentity(process.pid) !== null)(
    'takes over a lock whose pid now belongs to another process (a recycled pid)',
    () => {
      const dataDir = freshDataDir();
      // This live pid, but not the process that wrote the lock: it started at another time.
      writeLock(dataDir, { processIdentity: 'another-boot/12345' });
      acquireDataDirLock(dataDir).release();
    },
  );

  it('takes over an unreadable lock (only a crash can leave one) but never guesses about other hosts', () => {
    const dataDir = freshDataDir();
    writeFileSync(lockFileFor(dataDir), '');
    acquireDataDirLock(dataDir).release();

    writeLock(dataDir, { hostname: 'elsewhere.example', pid: 1 });
    expect(() => acquireDataDirLock(dataDir)).toThrow(
      /in use by process 1 on host elsewhere\.example .*cannot be checked from this host/,
    );
  });

  it('gives a stale lock to exactly one of several processes racing for it', async () => {
    const dataDir = freshDataDir();
    const dead = contender(dataDir);
    expect(await dead.outcome).toBe('locked');
    await dead.kill();
    const racers = [contender(dataDir), contender(dataDir), contender(dataDir)];
    try {
      const outcomes = await Promise.all(racers.map((racer) => racer.outcome));
      expect(outcomes.filter((outcome) => outcome === 'locked')).toHaveLength(1);
      const winner = racers[outcomes.indexOf('locked')];
      for (const outcome of outcomes.filter((text) => text !== 'locked')) {
        expect(outcome).toContain(`in use by process ${winner?.pid}`);
      }
    } finally {
      await Promise.all(racers.map((racer) => racer.kill()));
    }
  });

  it('is taken by openDatabase for a PGlite directory and released by close', async () => {
    const dataDir = freshDataDir();
    const first = await openDatabase({ databaseUrl: null, pgliteDataDir: dataDir });
    try {
      await expect(openDatabase({ databaseUrl: null, pgliteDataDir: dataDir })).rejects.toThrow(
        DataDirLockedError,
      );
    } finally {
      await first.close();
    }
    const second = await openDatabase({ databaseUrl: null, pgliteDataDir: dataDir });
    await second.close();
  });
});
