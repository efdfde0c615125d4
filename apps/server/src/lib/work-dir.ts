import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

// Scratch space of job steps (renders, analyses, thumbnails, downloads). A step removes its
// directory when it ends, but a SIGKILLed or OOM-killed process runs no `finally`: what it had
// open would stay in the temp directory forever. So every process keeps its scratch directories
// under one root named after its pid, `<tmp>/cadence-work/<pid>-<random>/`, and each process
// removes, when it starts, the roots of processes that no longer exist.

const ROOT_NAME = 'cadence-work';

/** Where every process's scratch root lives (os.tmpdir() follows TMPDIR). */
export function workRoot(): string {
  return path.join(os.tmpdir(), ROOT_NAME);
}

/** This process's root, under workRoot(). */
const ownRootName = `${process.pid}-${randomBytes(4).toString('hex')}`;

/**
 * A new, empty scratch directory for one job step, named `<prefix>XXXXXX` like mkdtemp. The
 * caller removes it when the step ends; if the process dies first, `sweepOrphanedWorkDirs` does.
 */
export async function makeWorkDir(prefix: string): Promise<string> {
  const ownRoot = path.join(workRoot(), ownRootName);
  // Made on each call: something may have cleaned the temp directory since the last one.
  await mkdir(ownRoot, { recursive: true, mode: 0o700 });
  return mkdtemp(path.join(ownRoot, prefix));
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists but belongs to another user.
    return error instanceof Error && 'code' in error && error.code === 'EPERM';
  }
}

/**
 * Removes the scratch roots of processes that have died (run at start-up by every process).
 * A live process's root is never touched, so processes sharing a machine can start in any order.
 * A pid reused by an unrelated process keeps the dead root until that process ends too.
 * Returns the roots removed.
 */
export async function sweepOrphanedWorkDirs(): Promise<string[]> {
  let entries: string[];
  try {
    entries = await readdir(workRoot());
  } catch {
    return [];
  }
  const removed: string[] = [];
  for (const entry of entries) {
    const pid = Number(/^(\d+)-/.exec(entry)?.[1]);
    if (!Number.isSafeInteger(pid) || pid <= 0 || pid === process.pid || isAlive(pid)) continue;
    await rm(path.join(workRoot(), entry), { recursive: true, force: true });
    removed.push(entry);
  }
  return removed;
}
