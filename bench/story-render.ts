/**
 * Story render benchmark: renders a story from two 1080p inputs through renderStory (the code path
 * the worker uses), then runs the very same ffmpeg argument list directly, and prints both wall
 * times, their ratio (target ≤ 1.1: our wrapper must cost nothing measurable) and the multiple of
 * real time. `npx tsx bench/story-render.ts [--seconds 30] [--runs 1] [--ffmpeg ffmpeg] [--ffprobe ffprobe]`
 */
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { probeVideo } from '../apps/server/src/media/probe.ts';
import {
  detectFfmpegCapabilities,
  renderStory,
} from '../apps/server/src/modules/stories/render/render-story.ts';
import {
  STORY_VIDEO_ENCODER_ARGS,
  buildStoryRenderArgs,
} from '../apps/server/src/modules/stories/render/story-render-args.ts';
import type { StoryRenderInput } from '../apps/server/src/modules/stories/render/story-render-args.ts';
import { makeVideo } from '../apps/server/src/test-support/media-fixtures.ts';

export interface StoryRenderBenchResult {
  storySeconds: number;
  pipelineSeconds: number;
  directSeconds: number;
  /** pipeline / direct; target ≤ 1.1. */
  ratio: number;
  /** Story seconds per wall-clock second through the pipeline. */
  realTimeMultiple: number;
  /** CPU seconds ffmpeg used (Linux only, else null): steadier than wall time on a shared machine. */
  pipelineCpuSeconds: number | null;
  directCpuSeconds: number | null;
}

/**
 * CPU seconds used so far by this process's reaped children (cutime + cstime in /proc/self/stat,
 * in clock ticks of 1/100 s on Linux). Null where /proc is missing.
 */
async function childrenCpuSeconds(): Promise<number | null> {
  const stat = await readFile('/proc/self/stat', 'utf8').catch(() => null);
  if (stat === null) return null;
  // Fields after the command name (which may contain spaces) start at field 3 (state).
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const cutime = Number(fields[13]);
  const cstime = Number(fields[14]);
  return Number.isFinite(cutime) && Number.isFinite(cstime) ? (cutime + cstime) / 100 : null;
}

async function measure(task: () => Promise<void>): Promise<{ wall: number; cpu: number | null }> {
  const cpuBefore = await childrenCpuSeconds();
  const start = performance.now();
  await task();
  const wall = (performance.now() - start) / 1000;
  const cpuAfter = await childrenCpuSeconds();
  return { wall, cpu: cpuBefore !== null && cpuAfter !== null ? cpuAfter - cpuBefore : null };
}

function runDirect(ffmpegPath: string, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(ffmpegPath, args, { stdio: ['ignore', 'ignore', 'inherit'] });
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0 ? resolve() : reject(new Error(`ffmpeg exited with ${String(code)}`)),
    );
  });
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[middle] ?? 0)
    : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}

export async function main(
  argv: string[] = process.argv.slice(2),
): Promise<StoryRenderBenchResult> {
  const { values } = parseArgs({
    args: argv,
    options: {
      seconds: { type: 'string', default: '30' },
      runs: { type: 'string', default: '1' },
      ffmpeg: { type: 'string', default: 'ffmpeg' },
      ffprobe: { type: 'string', default: 'ffprobe' },
    },
  });
  const seconds = Number(values.seconds);
  const runs = Math.max(1, Math.floor(Number(values.runs)));
  if (!(seconds > 0)) throw new Error('--seconds must be a positive number');
  const ffmpegPath = values.ffmpeg;
  const dir = await mkdtemp(join(tmpdir(), 'cadence-bench-story-'));
  try {
    const generationStart = performance.now();
    // A landscape 1080p top with sound, as a typical clip; a portrait 1080×1920 bottom with sound.
    const topPath = await makeVideo(
      join(dir, 'top.mp4'),
      { source: 'testsrc2', width: 1920, height: 1080, durationSeconds: seconds, audio: true },
      ffmpegPath,
    );
    const bottomPath = await makeVideo(
      join(dir, 'bottom.mp4'),
      { source: 'testsrc2', width: 1080, height: 1920, durationSeconds: seconds, audio: true },
      ffmpegPath,
    );
    const generationSeconds = (performance.now() - generationStart) / 1000;
    const top = { path: topPath, probe: await probeVideo(values.ffprobe, topPath) };
    const bottom = { path: bottomPath, probe: await probeVideo(values.ffprobe, bottomPath) };
    const capabilities = await detectFfmpegCapabilities(ffmpegPath);
    const input = (outputPath: string): StoryRenderInput => ({
      top,
      bottom,
      outputPath,
      mixBottomAudio: true,
    });

    const pipelineTimes: number[] = [];
    const directTimes: number[] = [];
    const pipelineCpu: number[] = [];
    const directCpu: number[] = [];
    let storySeconds = 0;
    // Alternate the two so a neighbour's load on a shared machine hits both alike.
    for (let run = 0; run < runs; run += 1) {
      const pipeline = await measure(async () => {
        ({ durationSeconds: storySeconds } = await renderStory({
          ffmpegPath,
          capabilities,
          ...input(join(dir, `pipeline-${run}.mp4`)),
          onProgress: () => undefined,
        }));
      });
      pipelineTimes.push(pipeline.wall);
      if (pipeline.cpu !== null) pipelineCpu.push(pipeline.cpu);

      const args = buildStoryRenderArgs(input(join(dir, `direct-${run}.mp4`)), capabilities);
      const direct = await measure(() => runDirect(ffmpegPath, args));
      directTimes.push(direct.wall);
      if (direct.cpu !== null) directCpu.push(direct.cpu);
    }

    const pipelineSeconds = median(pipelineTimes);
    const directSeconds = median(directTimes);
    const result: StoryRenderBenchResult = {
      storySeconds,
      pipelineSeconds,
      directSeconds,
      ratio: pipelineSeconds / directSeconds,
      realTimeMultiple: storySeconds / pipelineSeconds,
      pipelineCpuSeconds: pipelineCpu.length > 0 ? median(pipelineCpu) : null,
      directCpuSeconds: directCpu.length > 0 ? median(directCpu) : null,
    };
    console.log(
      `story render bench: ${storySeconds.toFixed(1)} s story, 1080p inputs, ${runs} run(s)`,
    );
    console.log(`  inputs generated in   ${generationSeconds.toFixed(1)} s`);
    console.log(`  encoder               ${STORY_VIDEO_ENCODER_ARGS.join(' ')}`);
    console.log(
      `  renderStory (median)  ${pipelineSeconds.toFixed(2)} s  [${pipelineTimes.map((t) => t.toFixed(2)).join(', ')}]`,
    );
    console.log(
      `  direct ffmpeg         ${directSeconds.toFixed(2)} s  [${directTimes.map((t) => t.toFixed(2)).join(', ')}]`,
    );
    console.log(`  ratio pipeline/direct ${result.ratio.toFixed(3)} (target ≤ 1.1)`);
    console.log(`  real-time multiple    ${result.realTimeMultiple.toFixed(2)}×`);
    if (result.pipelineCpuSeconds !== null && result.directCpuSeconds !== null) {
      console.log(
        `  ffmpeg CPU seconds    pipeline ${result.pipelineCpuSeconds.toFixed(1)}, direct ` +
          `${result.directCpuSeconds.toFixed(1)} (ratio ${(result.pipelineCpuSeconds / result.directCpuSeconds).toFixed(3)}; ` +
          `${(storySeconds / (result.pipelineCpuSeconds / 2)).toFixed(2)}× real time on 2 idle cores)`,
      );
    }
    return result;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

const invokedDirectly =
  process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href;
if (invokedDirectly) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
