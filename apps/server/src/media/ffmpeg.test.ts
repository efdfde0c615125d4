import { describe, expect, it } from 'vitest';
import { FfmpegError, runMediaTool } from './ffmpeg.ts';

/**
 * Regression (issue 9, found by the security review): an MPEG-TS meme source whose timestamps
 * jump from 4 s to 10,000 s passed every check (its packets do end at 10,004 s), and its
 * compilation ffmpeg grew past 10 GB in a minute, filling the machine until the server stopped
 * answering. Whatever a crafted file makes ffmpeg do, one run must not take more than its memory
 * budget: it is stopped and fails like any other ffmpeg error.
 */
describe('runMediaTool memory budget', () => {
  // `reverse` keeps every frame until the end: 6 s of 1080p is ~550 MB, a stand-in for a filter
  // graph that buffers without bound.
  const hog = [
    '-hide_banner',
    '-nostdin',
    '-f',
    'lavfi',
    '-i',
    'testsrc2=size=1920x1080:rate=30',
    '-t',
    '6',
    '-vf',
    'reverse',
    '-f',
    'null',
    '-',
  ];

  it('stops a run that outgrows its budget and says so', async () => {
    const run = runMediaTool('ffmpeg', hog, { maxMemoryBytes: 200 * 1024 * 1024 });
    await expect(run).rejects.toBeInstanceOf(FfmpegError);
    await expect(run).rejects.toThrow(/more than 200 MiB of memory/);
  }, 60_000);

  it('lets a run within its budget finish', async () => {
    const result = await runMediaTool(
      'ffmpeg',
      ['-hide_banner', '-nostdin', '-f', 'lavfi', '-i', 'testsrc2=size=320x240', '-t', '1'].concat([
        '-f',
        'null',
        '-',
      ]),
      { maxMemoryBytes: 200 * 1024 * 1024 },
    );
    expect(result.stderr).not.toMatch(/memory/);
  }, 60_000);
});
