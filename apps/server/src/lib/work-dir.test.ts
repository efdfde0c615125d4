import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeWorkDir, sweepOrphanedWorkDirs, workRoot } from './work-dir.ts';

describe('scratch directories', () => {
  const previousTmpdir = process.env.TMPDIR;
  let tmp: string;
  beforeEach(() => {
    tmp = mkdtempSync(path.join(os.tmpdir(), 'cadence-work-dir-test-'));
    // os.tmpdir() reads TMPDIR on each call: the roots go to this test's own directory.
    process.env.TMPDIR = tmp;
  });
  afterEach(() => {
    if (previousTmpdir === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = previousTmpdir;
    rmSync(tmp, { recursive: true, force: true });
  });

  it("sweeps what a SIGKILLed process left, never a live process's scratch", async () => {
    // A process that has ended: its pid is free (the pid of a finished child, not yet reused).
    const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']);
    const deadPid = Number(dead.stdout.toString());
    const deadRoot = path.join(workRoot(), `${deadPid}-0badc0de`);
    mkdirSync(path.join(deadRoot, 'story-abc123'), { recursive: true });
    writeFileSync(path.join(deadRoot, 'story-abc123', 'story.mp4'), 'half a render');
    // A live process (our parent) and this process.
    const liveRoot = path.join(workRoot(), `${process.ppid}-12345678`);
    mkdirSync(liveRoot, { recursive: true });
    const mine = await makeWorkDir('story-');
    writeFileSync(path.join(mine, 'story.mp4'), 'rendering');

    expect(await sweepOrphanedWorkDirs()).toEqual([path.basename(deadRoot)]);
    expect(existsSync(deadRoot)).toBe(false);
    expect(existsSync(liveRoot)).toBe(true);
    expect(existsSync(path.join(mine, 'story.mp4'))).toBe(true);
    expect(path.dirname(path.dirname(mine))).toBe(workRoot());
  });

  it('makes a fresh directory per call, even after the temp directory was cleaned', async () => {
    const first = await makeWorkDir('memes-analyse-');
    rmSync(workRoot(), { recursive: true, force: true });
    const second = await makeWorkDir('memes-analyse-');
    expect(second).not.toBe(first);
    expect(existsSync(second)).toBe(true);
  });
});
