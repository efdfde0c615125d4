import { mkdir, mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { SyntheticPlan } from '../../../../../../bench/memes/generate.ts';
import { runMediaTool } from '../../../media/ffmpeg.ts';
import { burstsPlan, makeSyntheticVideo } from '../../../test-support/media-fixtures.ts';
import { analyzeVideo } from './analyze.ts';
import type { VideoAnalysis } from './analyze.ts';
import { compileHighlights, extractThumbnails } from './compile.ts';
import { HIGHLIGHT_MIN_SCORE } from './scoring.ts';
import type { Interval } from './types.ts';

const FFMPEG = '/usr/bin/ffmpeg';
const FFPROBE = '/usr/bin/ffprobe';

const probeSchema = z.object({
  streams: z.array(
    z.object({
      codec_type: z.string(),
      codec_name: z.string(),
      width: z.number().optional(),
      height: z.number().optional(),
      pix_fmt: z.string().optional(),
    }),
  ),
  format: z.object({ duration: z.coerce.number() }),
});

async function probe(file: string) {
  const { stdout } = await runMediaTool(FFPROBE, [
    '-v',
    'error',
    '-show_entries',
    'stream=codec_type,codec_name,width,height,pix_fmt:format=duration',
    '-of',
    'json',
    file,
  ]);
  return probeSchema.parse(JSON.parse(stdout) as unknown);
}

/** Share of `truth` inside `extract`. */
function covered(truth: Interval, extract: Interval): number {
  const inter = Math.max(
    0,
    Math.min(truth.endSeconds, extract.endSeconds) -
      Math.max(truth.startSeconds, extract.startSeconds),
  );
  return inter / (truth.endSeconds - truth.startSeconds);
}

describe('meme engine on a generated video', () => {
  let dir: string;
  let plan: SyntheticPlan;
  let videoPath: string;
  let analysis: VideoAnalysis;
  const progress: number[] = [];

  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'cadence-memes-engine-'));
    // The same seeded source as memes.db.test.ts: rendered once per machine for both files.
    plan = burstsPlan();
    videoPath = await makeSyntheticVideo(path.join(dir, 'bursts.mp4'), plan);
    // Metadata files go through a filtergraph option: a directory name full of its
    // special characters proves the escaping.
    const awkwardTemp = path.join(dir, "meta: it's [a], b; c");
    await mkdir(awkwardTemp);
    analysis = await analyzeVideo({
      ffmpegPath: FFMPEG,
      ffprobePath: FFPROBE,
      inputPath: videoPath,
      tempDir: awkwardTemp,
      onProgress: (fraction) => progress.push(fraction),
    });
  });

  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('finds each known burst as a highlight extract', () => {
    expect(plan.highlights).toHaveLength(3);
    expect(analysis.shorterThanTarget).toBe(false);
    expect(analysis.hasAudio).toBe(true);
    expect(analysis.durationSeconds).toBeCloseTo(plan.durationSeconds, 1);
    const highlights = analysis.extracts.filter((e) => e.score >= HIGHLIGHT_MIN_SCORE);
    expect(highlights).toHaveLength(3);
    // 60 s out of ~80: extracts must grow well past the bursts, so ask for cover, not IoU.
    for (const truth of plan.highlights) {
      const best = Math.max(...highlights.map((e) => covered(truth, e)));
      expect(best).toBeGreaterThanOrEqual(0.9);
    }
    const total = analysis.extracts.reduce((s, e) => s + e.endSeconds - e.startSeconds, 0);
    expect(total).toBeCloseTo(60, 6);
    expect(progress.at(-1)).toBe(1);
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
  });

  it('compiles a 60 s 1080x1920 H.264/AAC video and a thumbnail per extract', async () => {
    const outputPath = path.join(dir, 'compilation.mp4');
    const result = await compileHighlights({
      ffmpegPath: FFMPEG,
      inputPath: videoPath,
      extracts: analysis.extracts,
      layout: 'crop',
      hasAudio: analysis.hasAudio,
      outputPath,
      preset: 'ultrafast',
    });
    expect(result.durationSeconds).toBeCloseTo(60, 6);
    const probed = await probe(outputPath);
    expect(Math.abs(probed.format.duration - 60)).toBeLessThanOrEqual(0.1);
    expect(probed.streams).toEqual(
      expect.arrayContaining([
        { codec_type: 'video', codec_name: 'h264', width: 1080, height: 1920, pix_fmt: 'yuv420p' },
        expect.objectContaining({ codec_type: 'audio', codec_name: 'aac' }) as unknown,
      ]),
    );
    const thumbnails = await extractThumbnails({
      ffmpegPath: FFMPEG,
      inputPath: videoPath,
      extracts: analysis.extracts,
      outputDir: dir,
    });
    expect(thumbnails).toHaveLength(analysis.extracts.length);
    for (const file of thumbnails) {
      expect(file).not.toBeNull();
      const bytes = await readFile(file ?? '');
      expect([bytes[0], bytes[1]]).toEqual([0xff, 0xd8]); // JPEG
    }
  });

  it('keeps a short video without audio whole and gives its compilation a silent track', async () => {
    // 4 s: shorter than the 60 s target, so kept whole; its 1080x1920 blur compilation is most of
    // this test's time, and grows with the clip.
    const shortPath = path.join(dir, 'short-no-audio.mp4');
    await runMediaTool(FFMPEG, [
      '-v',
      'error',
      '-f',
      'lavfi',
      '-i',
      'testsrc2=s=160x90:r=25:d=4',
      '-c:v',
      'libx264',
      '-preset',
      'ultrafast',
      '-pix_fmt',
      'yuv420p',
      shortPath,
    ]);
    const short = await analyzeVideo({
      ffmpegPath: FFMPEG,
      ffprobePath: FFPROBE,
      inputPath: shortPath,
    });
    expect(short.hasAudio).toBe(false);
    expect(short.shorterThanTarget).toBe(true);
    expect(short.extracts).toEqual([
      expect.objectContaining({ startSeconds: 0, endSeconds: short.durationSeconds }) as unknown,
    ]);
    const outputPath = path.join(dir, 'short-compilation.mp4');
    await compileHighlights({
      ffmpegPath: FFMPEG,
      inputPath: shortPath,
      extracts: short.extracts,
      layout: 'blur',
      hasAudio: false,
      outputPath,
      preset: 'ultrafast',
    });
    const probed = await probe(outputPath);
    expect(Math.abs(probed.format.duration - 4)).toBeLessThanOrEqual(0.1);
    expect(probed.streams.map((s) => s.codec_type).sort()).toEqual(['audio', 'video']);
    expect(probed.streams.find((s) => s.codec_type === 'video')).toMatchObject({
      width: 1080,
      height: 1920,
    });
  });

  it('stops when aborted mid-analysis and leaves no temporary files', async () => {
    const controller = new AbortController();
    const tempDir = path.join(dir, 'abort-temp');
    await mkdir(tempDir);
    await expect(
      analyzeVideo({
        ffmpegPath: FFMPEG,
        ffprobePath: FFPROBE,
        inputPath: videoPath,
        signal: controller.signal,
        tempDir,
        onProgress: () => controller.abort(),
      }),
    ).rejects.toThrow(/abort/i);
    expect(await readdir(tempDir)).toEqual([]);
  });
});
