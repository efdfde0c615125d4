import { createHash, randomBytes } from 'node:crypto';
import {
  closeSync,
  fsyncSync,
  linkSync,
  openSync,
  readFileSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Logger } from 'pino';
import { z } from 'zod';

/**
 * One process per PGlite data directory (decision record 012). PGlite has no server: two processes
 * that open the same directory each work on their own copy of its pages and overwrite each other's
 * files, and writes vanish at the next restart. So whoever opens it first writes `<dir>.lock`
 * (created atomically with link(2), which fails when the name exists) naming itself; everyone else
 * is refused while that process lives, and takes the lock over once it has died.
 */

const ownerSchema = z.object({
  pid: z.number().int().positive(),
  hostname: z.string(),
  /**
   * Linux: boot id and the process's start time in clock ticks since boot, read from /proc. A pid
   * alone is not an identity: after a crash (or in a new container) the pid is often reused.
   */
  processIdentity: z.string().nullable(),
  startedAt: z.string(),
  command: z.string(),
  nonce: z.string(),
});
export type LockOwner = z.infer<typeof ownerSchema>;

export class DataDirLockedError extends Error {
  override name = 'DataDirLockedError';
  constructor(
    message: string,
    readonly lockFile: string,
    /** null when the lock file could not be read as a lock. */
    readonly owner: LockOwner | null,
  ) {
    super(message);
  }
}

export interface DataDirLock {
  readonly lockFile: string;
  readonly owner: LockOwner;
  /** Removes the lock file if it is still ours; idempotent. */
  release(): void;
}

/** The lock file for a PGlite data directory: a sibling, so it lives in DATA_DIR next to pgdata. */
export function lockFileFor(dataDir: string): string {
  return `${path.resolve(dataDir)}.lock`;
}

function errorCode(error: unknown): string | undefined {
  return error instanceof Error && 'code' in error && typeof error.code === 'string'
    ? error.code
    : undefined;
}

function readText(file: string): string | null {
  try {
    return readFileSync(file, 'utf8').trim();
  } catch {
    return null;
  }
}

/** `<boot id>/<start time in ticks>` of a live process on this machine; null where /proc is absent. */
export function processIdentity(pid: number): string | null {
  const stat = readText(`/proc/${pid}/stat`);
  const bootId = readText('/proc/sys/kernel/random/boot_id');
  if (stat === null || bootId === null) return null;
  // Field 2 (the command) is in parentheses and may itself contain spaces and parentheses.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const startTime = fields[19]; // field 22 of proc(5); `fields` starts at field 3
  return startTime === undefined ? null : `${bootId}/${startTime}`;
}

function describeCommand(): string {
  const script = process.argv[1];
  return script ? `node ${path.relative(process.cwd(), script) || script}` : 'node';
}

/** Whether the lock's owner may still be running. Unknown (another host) counts as alive. */
export function ownerIsAlive(owner: LockOwner): boolean {
  if (owner.hostname !== os.hostname()) return true;
  try {
    process.kill(owner.pid, 0);
  } catch (error) {
    // EPERM: the pid exists but belongs to another user.
    if (errorCode(error) === 'ESRCH') return false;
  }
  if (owner.processIdentity === null) return true;
  const current = processIdentity(owner.pid);
  return current === null || current === owner.processIdentity;
}

function describeOwner(owner: LockOwner): string {
  const where = owner.hostname === os.hostname() ? '' : ` on host ${owner.hostname}`;
  return `process ${owner.pid}${where} (${owner.command}, since ${owner.startedAt})`;
}

type LockContents = { bytes: Buffer; owner: LockOwner | null };

/** null: no lock file (any more). */
function readLock(lockFile: string): LockContents | null {
  let bytes: Buffer;
  try {
    bytes = readFileSync(lockFile);
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return null;
    throw error;
  }
  let owner: LockOwner | null = null;
  try {
    const parsed = ownerSchema.safeParse(JSON.parse(bytes.toString('utf8')));
    owner = parsed.success ? parsed.data : null;
  } catch {
    owner = null;
  }
  return { bytes, owner };
}

/** Creates `file` with exactly `text`, flushed, failing if it exists (via a unique temporary name). */
function createExclusive(file: string, text: string): boolean {
  const temporary = `${file}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  const descriptor = openSync(temporary, 'wx', 0o644);
  try {
    writeSync(descriptor, text);
    // A lock that survived a power cut must still say who held it, not be an empty file.
    fsyncSync(descriptor);
  } finally {
    closeSync(descriptor);
  }
  try {
    linkSync(temporary, file);
    return true;
  } catch (error) {
    if (errorCode(error) === 'EEXIST') return false;
    throw error;
  } finally {
    unlinkSync(temporary);
  }
}

/** A short synchronous wait: lock acquisition runs once, before anything else, at start-up. */
function pause(milliseconds: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, milliseconds);
}

function unlinkIfPresent(file: string): void {
  try {
    unlinkSync(file);
  } catch (error) {
    if (errorCode(error) !== 'ENOENT') throw error;
  }
}

/**
 * Removes a dead owner's lock. Two processes may find the same stale lock at once; the one that
 * creates `<lock>.takeover-<hash of the stale lock>` first removes it, after checking it is still
 * that exact lock (only a holder of this marker can remove it: its owner is dead). A late
 * contender finds another lock there and leaves it alone.
 */
function takeOver(lockFile: string, stale: LockContents, ownText: string): void {
  const hash = createHash('sha256').update(stale.bytes).digest('hex').slice(0, 16);
  const marker = `${lockFile}.takeover-${hash}`;
  if (!createExclusive(marker, ownText)) {
    const holder = readLock(marker);
    if (holder === null) return; // finished meanwhile; the caller tries again
    if (holder.owner === null || !ownerIsAlive(holder.owner)) {
      throw new DataDirLockedError(
        `A process died while taking over the stale lock ${lockFile}. No Cadence process uses this data directory any more: delete ${lockFile} and ${marker}, then start again.`,
        lockFile,
        stale.owner,
      );
    }
    // Someone else is taking it over right now (a matter of microseconds): let them finish.
    pause(5);
    return;
  }
  try {
    const current = readLock(lockFile);
    if (current !== null && current.bytes.equals(stale.bytes)) unlinkSync(lockFile);
  } finally {
    unlinkIfPresent(marker);
  }
}

/**
 * Takes the lock of a PGlite data directory for this process, or throws DataDirLockedError naming
 * the live process that holds it. A lock left by a dead process is taken over.
 */
export function acquireDataDirLock(dataDir: string): DataDirLock {
  const lockFile = lockFileFor(dataDir);
  const owner: LockOwner = {
    pid: process.pid,
    hostname: os.hostname(),
    processIdentity: processIdentity(process.pid),
    startedAt: new Date(Date.now() - process.uptime() * 1000).toISOString(),
    command: describeCommand(),
    nonce: randomBytes(12).toString('hex'),
  };
  const text = `${JSON.stringify(owner, null, 2)}\n`;
  for (let attempt = 0; attempt < 20; attempt += 1) {
    if (createExclusive(lockFile, text)) {
      let released = false;
      return {
        lockFile,
        owner,
        release() {
          if (released) return;
          released = true;
          // Only ever remove our own lock, never one a later process took over.
          if (readLock(lockFile)?.owner?.nonce === owner.nonce) unlinkIfPresent(lockFile);
        },
      };
    }
    const existing = readLock(lockFile);
    if (existing === null) continue; // released meanwhile
    if (existing.owner === null) {
      // Only a crash can leave an unreadable lock (it appears complete, by link): its owner is gone.
      takeOver(lockFile, existing, text);
      continue;
    }
    if (ownerIsAlive(existing.owner)) {
      const otherHost = existing.owner.hostname !== os.hostname();
      throw new DataDirLockedError(
        `The PGlite database ${path.resolve(dataDir)} is in use by ${describeOwner(existing.owner)}. ` +
          'Only one process may open it: stop that process first, or use PostgreSQL (DATABASE_URL) ' +
          `to run several. ${otherHost ? 'Its liveness cannot be checked from this host; if' : 'If'} ` +
          `that process is no longer running, delete ${lockFile}.`,
        lockFile,
        existing.owner,
      );
    }
    takeOver(lockFile, existing, text);
  }
  throw new DataDirLockedError(
    `Could not take the lock ${lockFile}: other processes kept taking it. Try again.`,
    lockFile,
    null,
  );
}

/**
 * For entry points: `bootstrap(…).catch(exitIfDataDirLocked(logger))` says which process holds the
 * database and exits 1, instead of a stack trace; any other error is rethrown.
 */
export function exitIfDataDirLocked(logger: Pick<Logger, 'fatal' | 'flush'>) {
  return (error: unknown): never => {
    if (error instanceof DataDirLockedError) {
      logger.fatal({ lockFile: error.lockFile, owner: error.owner }, error.message);
      logger.flush();
      process.exit(1);
    }
    throw error;
  };
}
