import { access, readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runMediaTool } from '../../../media/ffmpeg.ts';
import { probeVideo } from '../../../media/probe.ts';
import type { ProbedVideo } from '../../../media/probe.ts';
import {
  createTempDir,
  makeVideo,
  readFrameRgb,
  testBinaries,
} from '../../../test-support/media-fixtures.ts';
import type { FixtureVideoOptions } from '../../../test-support/media-fixtures.ts';
import { detectFfmpegCapabilities, renderStory } from './render-story.ts';
import { STORY_HEIGHT, STORY_WIDTH } from './story-render-args.ts';

const { ffmpeg, ffprobe } = testBinaries;

let dir: string;
let cleanup: () => Promise<void>;
beforeAll(async () => {
  ({ dir, cleanup } = await createTempDir('cadence-story-'));
});
afterAll(async () => {
  await cleanup();
});

let fileCounter = 0;
async function clip(
  options: FixtureVideoOptions,
  extension = 'mp4',
): Promise<{ path: string; probe: ProbedVideo }> {
  fileCounter += 1;
  const path = await makeVideo(join(dir, `clip-${fileCounter}.${extension}`), options);
  return { path, probe: await probeVideo(ffprobe, path) };
}

async function render(
  top: { path: string; probe: ProbedVideo },
  bottom: { path: string; probe: ProbedVideo },
  options: { mixBottomAudio?: boolean; onProgress?: (fraction: number) => void } = {},
): Promise<{ path: string; probe: ProbedVideo }> {
  fileCounter += 1;
  const outputPath = join(dir, `story-${fileCounter}.mp4`);
  await renderStory({
    ffmpegPath: ffmpeg,
    top,
    bottom,
    outputPath,
    mixBottomAudio: options.mixBottomAudio ?? false,
    onProgress: options.onProgress,
  });
  return { path: outputPath, probe: await probeVideo(ffprobe, outputPath) };
}

/** What every story must be, whatever went in. */
function expectStoryShape(story: ProbedVideo, topDurationSeconds: number): void {
  expect(story).toMatchObject({
    videoCodec: 'h264',
    width: STORY_WIDTH,
    height: STORY_HEIGHT,
    displayWidth: STORY_WIDTH,
    displayHeight: STORY_HEIGHT,
    rotation: 0,
    sampleAspectRatio: 1,
    pixelFormat: 'yuv420p',
    fps: 30,
    hasAudio: true,
    audioCodec: 'aac',
  });
  expect(Math.abs(story.durationSeconds - topDurationSeconds)).toBeLessThanOrEqual(0.1);
}

type Rgb = [number, number, number];
const RED: Rgb = [255, 0, 0];
const GREEN: Rgb = [0, 128, 0]; // ffmpeg's 'green' is #008000
const BLUE: Rgb = [0, 0, 255];
const YELLOW: Rgb = [255, 255, 0];

/** Within compression and YUV round-trip error of the expected colour. */
function expectColour(actual: Rgb, expected: Rgb, where: string): void {
  const distance = Math.max(
    ...actual.map((value, index) => Math.abs(value - (expected[index] ?? 0))),
  );
  expect(
    distance,
    `${where}: got rgb(${actual.join(',')}), want rgb(${expected.join(',')})`,
  ).toBeLessThan(40);
}

async function frameAt(path: string, seconds: number) {
  return readFrameRgb(path, seconds, { width: STORY_WIDTH, height: STORY_HEIGHT }, ffmpeg);
}

/** Mean loudness in dB of a file's audio (−91 dB for digital silence). */
async function meanVolumeDb(path: string): Promise<number> {
  const { stderr } = await runMediaTool(ffmpeg, [
    '-hide_banner',
    '-nostdin',
    '-i',
    path,
    '-map',
    '0:a',
    '-af',
    'volumedetect',
    '-f',
    'null',
    '-',
  ]);
  const match = /mean_volume:\s*(-?[\d.]+|-inf) dB/.exec(stderr);
  if (!match?.[1]) throw new Error(`no volumedetect output in: ${stderr.slice(-500)}`);
  return match[1] === '-inf' ? -Infinity : Number(match[1]);
}

describe('renderStory', () => {
  it('puts the top clip in the top half and loops a shorter bottom clip under it', async () => {
    const top = await clip({ source: { color: 'red' }, durationSeconds: 2.5, audio: true });
    // Blue for 0.5 s then yellow: at 1.25 s a looped bottom is blue again, a frozen one yellow.
    const bottom = await clip({
      source: { color: 'blue', switchTo: { color: 'yellow', atSeconds: 0.5 } },
      durationSeconds: 1,
    });
    const fractions: number[] = [];
    const story = await render(top, bottom, { onProgress: (fraction) => fractions.push(fraction) });
    expectStoryShape(story.probe, top.probe.durationSeconds);

    const frame = await frameAt(story.path, 1.25);
    for (const [x, y] of [
      [10, 10],
      [540, 480],
      [1070, 950],
    ] as const) {
      expectColour(frame.pixel(x, y), RED, `top half (${x},${y})`);
    }
    for (const [x, y] of [
      [10, 970],
      [540, 1440],
      [1070, 1910],
    ] as const) {
      expectColour(frame.pixel(x, y), BLUE, `bottom half (${x},${y})`);
    }
    expectColour((await frameAt(story.path, 0.75)).pixel(540, 1440), YELLOW, 'bottom at 0.75 s');

    expect(fractions.at(-1)).toBe(1);
    expect(fractions.length).toBeGreaterThan(1);
    expect([...fractions].sort((a, b) => a - b)).toEqual(fractions);
  });

  it('trims a longer bottom clip to the top clip', async () => {
    const top = await clip({ source: { color: 'red' }, durationSeconds: 1 });
    const bottom = await clip({ source: { color: 'blue' }, durationSeconds: 3, audio: true });
    const story = await render(top, bottom);
    expectStoryShape(story.probe, 1);
  });

  it('shows a portrait phone clip (rotated 90°) upright, filling the half without distortion', async () => {
    // Coded landscape 320×180, left half red; turned 90° clockwise the red half is on top.
    const top = await clip({
      source: { color: 'green', stripe: { color: 'red', widthFraction: 0.5 } },
      width: 320,
      height: 180,
      displayMatrixRotation: -90,
    });
    const bottom = await clip({ source: { color: 'blue' }, width: 721, height: 405 });
    expect(top.probe).toMatchObject({ rotation: 90, displayWidth: 180, displayHeight: 320 });
    const story = await render(top, bottom);
    expectStoryShape(story.probe, top.probe.durationSeconds);

    // Upright 180×320 covers 1080×960 at 1080×1920 with the middle 960 rows kept: red above
    // row 480, green below. Unrotated it would be red on the left, green on the right.
    const frame = await frameAt(story.path, 1);
    expectColour(frame.pixel(300, 100), RED, 'top-left');
    expectColour(frame.pixel(800, 100), RED, 'top-right');
    expectColour(frame.pixel(300, 860), GREEN, 'lower-left of the top half');
    expectColour(frame.pixel(800, 860), GREEN, 'lower-right of the top half');
    expectColour(frame.pixel(540, 1440), BLUE, 'odd-sized bottom');
  });

  it('honours a non-square sample aspect ratio (anamorphic) and converts VFR to 30 fps', async () => {
    // Coded 240×240 with 2:1 pixels displays as 480×240; the red stripe is the left quarter.
    // Covering 1080×960: 1920×960, centre crop from x=420 → red only for x < 60. Ignoring the
    // SAR (square 240×240 → 1080×1080) would make it red up to x = 270.
    const top = await clip({
      source: { color: 'green', stripe: { color: 'red', widthFraction: 0.25 } },
      width: 240,
      height: 240,
      sar: '2/1',
      durationSeconds: 2,
    });
    const bottom = await clip({ source: { color: 'blue' }, vfr: true, durationSeconds: 3 });
    expect(bottom.probe.fps).toBeLessThan(29);
    const story = await render(top, bottom);
    expectStoryShape(story.probe, top.probe.durationSeconds);

    const frame = await frameAt(story.path, 1);
    expectColour(frame.pixel(20, 480), RED, 'inside the stripe');
    expectColour(frame.pixel(150, 480), GREEN, 'right of the stripe');
    expectColour(frame.pixel(540, 1440), BLUE, 'VFR bottom');
  });

  it('converts 10-bit HDR and 10-bit SDR inputs to 8-bit yuv420p, adding silence for silent clips', async () => {
    const top = await clip({ source: { color: 'red' }, tenBit: true, hdr: 'pq' });
    const bottom = await clip({ source: { color: 'blue' }, tenBit: true, codec: 'hevc' });
    expect([top.probe.bitDepth, bottom.probe.bitDepth]).toEqual([10, 10]);
    expect(top.probe.hasAudio || bottom.probe.hasAudio).toBe(false);
    const story = await render(top, bottom);
    expectStoryShape(story.probe, top.probe.durationSeconds);
    expect(story.probe.bitDepth).toBe(8);
    expect(await meanVolumeDb(story.path)).toBeLessThan(-80);

    const frame = await frameAt(story.path, 1);
    // Tone mapping changes the exact shade; the top must stay clearly red.
    const [r, g, b] = frame.pixel(540, 480);
    expect(r).toBeGreaterThan(g + 60);
    expect(r).toBeGreaterThan(b + 60);
    expectColour(frame.pixel(540, 1440), BLUE, '10-bit SDR bottom');
  });

  it("mixes the bottom's sound only when asked", async () => {
    const top = await clip({ source: { color: 'red' }, durationSeconds: 1 });
    const bottom = await clip({ source: { color: 'blue' }, durationSeconds: 1, audio: true });
    const mixed = await render(top, bottom, { mixBottomAudio: true });
    const unmixed = await render(top, bottom, { mixBottomAudio: false });
    expectStoryShape(mixed.probe, 1);
    expect(await meanVolumeDb(unmixed.path)).toBeLessThan(-80);
    // The fixture's sine is about −21 dB mean; at volume 0.3 about −31 dB.
    const mixedDb = await meanVolumeDb(mixed.path);
    expect(mixedDb).toBeGreaterThan(-40);
    expect(mixedDb).toBeLessThan(-25);
  });

  it('stops ffmpeg, rejects and removes the partial file when aborted', async () => {
    const top = await clip({ source: 'testsrc2', durationSeconds: 20, fps: 30 });
    const bottom = await clip({ source: 'testsrc2', durationSeconds: 1 });
    const outputPath = join(dir, 'aborted.mp4');
    const controller = new AbortController();
    const rendering = renderStory({
      ffmpegPath: ffmpeg,
      top,
      bottom,
      outputPath,
      mixBottomAudio: false,
      signal: controller.signal,
      onProgress: () => controller.abort(),
    });
    await expect(rendering).rejects.toMatchObject({ name: 'AbortError' });
    expect(await ffmpegProcessesWriting(outputPath)).toEqual([]);
    await expect(access(outputPath)).rejects.toThrow();
  });

  it('detects zscale in this ffmpeg build', async () => {
    // Debian's ffmpeg is built with libzimg; if this fails, HDR inputs render without tone mapping.
    expect(await detectFfmpegCapabilities(ffmpeg)).toEqual({ zscale: true });
  });
});

/** Pids of live processes whose command line mentions `outputPath`. */
async function ffmpegProcessesWriting(outputPath: string): Promise<number[]> {
  const pids: number[] = [];
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const cmdline = await readFile(`/proc/${entry}/cmdline`, 'utf8').catch(() => '');
    if (cmdline.includes(outputPath)) pids.push(Number(entry));
  }
  return pids;
}
