import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTempDir, testBinaries } from '../test-support/media-fixtures.ts';
import { runMediaTool } from './ffmpeg.ts';
import { grabFrame, grabFrames, printedFrameSeconds, seekAttempts } from './thumbnails.ts';

const { ffmpeg } = testBinaries;

let dir: string;
let cleanup: () => Promise<void>;
/** MPEG-TS starting at ~1.4 s, keyframes only at 0 and 8.3 s (x264's default GOP of 250). */
let transportStream: string;

beforeAll(async () => {
  ({ dir, cleanup } = await createTempDir('cadence-thumbnails-'));
  transportStream = join(dir, 'clip.ts');
  await runMediaTool(ffmpeg, [
    ...['-v', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc2=size=320x240:rate=30'],
    ...['-t', '10', '-c:v', 'libx264', '-preset', 'ultrafast', '-f', 'mpegts', transportStream],
  ]);
});
afterAll(async () => {
  await cleanup();
});

/** The frame at `seconds` decoded the slow, sure way: from the first frame, no seeking. */
async function referenceFrame(seconds: number, output: string): Promise<Buffer> {
  await runMediaTool(ffmpeg, [
    ...['-v', 'error', '-y', '-i', transportStream, '-ss', String(seconds), '-map', '0:v:0'],
    ...['-frames:v', '1', '-vf', 'scale=iw*sar:ih,setsar=1,scale=320:-2', '-q:v', '3', output],
  ]);
  return readFile(output);
}

describe('grabFrame', () => {
  it('seeks directly first, then earlier, then from the start', () => {
    expect(seekAttempts(50)).toEqual([50, 20, 0]);
    expect(seekAttempts(5)).toEqual([5, 0]);
    expect(seekAttempts(0)).toEqual([0]);
    expect(printedFrameSeconds('frame:0    pts:12      pts_time:1.5\ncadence.frame=1\n')).toBe(1.5);
  });

  // Regression: ffmpeg's seek in this file lands after the keyframe it needs, so the frame at
  // 5 s came out as the one at 8.3 s, and the one at 8.5 s not at all (exit code 0, no file).
  it.each([0.5, 5, 8.5, 9.9])(
    'writes the exact frame at %s s of an MPEG-TS with sparse keyframes',
    async (seconds) => {
      const output = join(dir, `grab-${seconds}.jpg`);
      const grabbed = await grabFrame(ffmpeg, transportStream, output, { atSeconds: seconds });
      expect(grabbed.atSeconds).toBeCloseTo(seconds, 1);
      expect(await readFile(output)).toEqual(
        await referenceFrame(seconds, join(dir, `ref-${seconds}.jpg`)),
      );
    },
  );

  it('takes the first frame when asked for a moment past the end', async () => {
    const output = join(dir, 'late.jpg');
    expect(await grabFrame(ffmpeg, transportStream, output, { atSeconds: 60 })).toEqual({
      atSeconds: 0,
    });
    expect(await readFile(output)).toEqual(await referenceFrame(0, join(dir, 'ref-0.jpg')));
  });
});

describe('grabFrames', () => {
  it('writes each exact frame of an MPEG-TS whose seeks land late or nowhere', async () => {
    const positions = [0.5, 5, 8.5, 9.9];
    const requests = positions.map((atSeconds) => ({
      atSeconds,
      outputJpegPath: join(dir, `many-${atSeconds}.jpg`),
    }));
    const found = await grabFrames(ffmpeg, transportStream, requests);
    for (const [i, atSeconds] of positions.entries()) {
      expect(found[i]).toBeCloseTo(atSeconds, 1);
      expect(await readFile(requests[i]?.outputJpegPath ?? '')).toEqual(
        await referenceFrame(atSeconds, join(dir, `many-ref-${atSeconds}.jpg`)),
      );
    }
  });
});
