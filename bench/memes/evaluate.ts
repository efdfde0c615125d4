import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { analyzeVideo } from '../../apps/server/src/modules/memes/engine/analyze.ts';
import { HIGHLIGHT_MIN_SCORE } from '../../apps/server/src/modules/memes/engine/scoring.ts';
import type { Interval } from '../../apps/server/src/modules/memes/engine/types.ts';
import { loudestWindows, uniformExtracts } from './baselines.ts';
import { ensureSpeedVideo, measureEngine } from './engine-speed.ts';
import { generateSyntheticVideo, planSyntheticVideo } from './generate.ts';
import { NO_COUNTS, addCounts, matchIntervals, scoresOf, secondCounts } from './metrics.ts';
import type { Counts } from './metrics.ts';

/**
 * Meme detector evaluation: seeded synthetic videos with known highlights (see generate.ts),
 * our detector against two baselines computed in the same run, then the speed measure on a
 * 10-minute 720p video.
 *
 *   npx tsx bench/memes/evaluate.ts [--videos=10] [--ffmpeg=/usr/bin/ffmpeg]
 *     [--ffprobe=/usr/bin/ffprobe] [--keep=<dir>] [--skip-speed] [--difficulty=easy|hard|both]
 *
 * --keep reuses (and keeps) generated videos in <dir>; otherwise they go to a temporary
 * directory removed at the end.
 */

interface Options {
  videos: number;
  ffmpegPath: string;
  ffprobePath: string;
  keepDir: string | null;
  speed: boolean;
  difficulties: ('easy' | 'hard')[];
}

function parseArgs(argv: string[]): Options {
  const value = (name: string) =>
    argv.find((arg) => arg.startsWith(`--${name}=`))?.slice(name.length + 3);
  return {
    videos: Number(value('videos') ?? 10),
    ffmpegPath: value('ffmpeg') ?? '/usr/bin/ffmpeg',
    ffprobePath: value('ffprobe') ?? '/usr/bin/ffprobe',
    keepDir: value('keep') ?? null,
    speed: !argv.includes('--skip-speed'),
    difficulties:
      value('difficulty') === 'easy'
        ? ['easy']
        : value('difficulty') === 'hard'
          ? ['hard']
          : ['easy', 'hard'],
  };
}

const METHODS = [
  'ours: highlights (score ≥ threshold)',
  'ours: full 60 s compilation',
  'baseline uniform: 10 × 6 s',
  'baseline loudest: 10 × 6 s',
  'baseline loudest: k = truth count × 6 s (oracle k)',
] as const;
type Method = (typeof METHODS)[number];

interface MethodCounts {
  at03: Counts;
  at05: Counts;
  seconds: Counts;
}

const pct = (value: number) => `${(value * 100).toFixed(1)}`.padStart(5);

function formatTable(results: Map<Method, MethodCounts>): string {
  const header = `${'method'.padEnd(52)} | P@.3  R@.3  F1@.3 | P@.5  R@.5  F1@.5 | sec-F1`;
  const lines = [header, '-'.repeat(header.length)];
  for (const method of METHODS) {
    const counts = results.get(method);
    if (!counts) continue;
    const a = scoresOf(counts.at03);
    const b = scoresOf(counts.at05);
    const s = scoresOf(counts.seconds);
    lines.push(
      `${method.padEnd(52)} | ${pct(a.precision)} ${pct(a.recall)} ${pct(a.f1)} | ` +
        `${pct(b.precision)} ${pct(b.recall)} ${pct(b.f1)} | ${pct(s.f1)}`,
    );
  }
  return lines.join('\n');
}

async function evaluateAccuracy(
  options: Options,
  workDir: string,
  difficulty: 'easy' | 'hard',
): Promise<number> {
  const results = new Map<Method, MethodCounts>(
    METHODS.map((m) => [m, { at03: NO_COUNTS, at05: NO_COUNTS, seconds: NO_COUNTS }]),
  );
  let analysedSeconds = 0;
  let analysisMs = 0;
  for (let index = 0; index < options.videos; index += 1) {
    const seed = 1000 + index;
    // 3 to 5 minutes, varying with the seed.
    const plan = planSyntheticVideo({
      seed,
      targetSeconds: 180 + ((seed * 37) % 121),
      difficulty,
    });
    const name = `eval-${difficulty}-${seed}`;
    const videoPath = path.join(workDir, `${name}.mp4`);
    if (!existsSync(videoPath)) {
      await generateSyntheticVideo({
        ffmpegPath: options.ffmpegPath,
        outputDir: workDir,
        plan,
        name,
      });
    }
    const started = performance.now();
    const analysis = await analyzeVideo({
      ffmpegPath: options.ffmpegPath,
      ffprobePath: options.ffprobePath,
      inputPath: videoPath,
    });
    analysisMs += performance.now() - started;
    analysedSeconds += analysis.durationSeconds;
    const truth = plan.highlights;
    const rms = analysis.perSecond.map((s) => s.rmsDb);
    const predictions: Record<Method, Interval[]> = {
      'ours: highlights (score ≥ threshold)': analysis.extracts.filter(
        (e) => e.score >= HIGHLIGHT_MIN_SCORE,
      ),
      'ours: full 60 s compilation': analysis.extracts,
      'baseline uniform: 10 × 6 s': uniformExtracts(analysis.durationSeconds, 10, 6),
      'baseline loudest: 10 × 6 s': loudestWindows(rms, 10, 6),
      'baseline loudest: k = truth count × 6 s (oracle k)': loudestWindows(rms, truth.length, 6),
    };
    for (const method of METHODS) {
      const predicted = predictions[method];
      const previous = results.get(method) ?? {
        at03: NO_COUNTS,
        at05: NO_COUNTS,
        seconds: NO_COUNTS,
      };
      results.set(method, {
        at03: addCounts(previous.at03, matchIntervals(predicted, truth, 0.3)),
        at05: addCounts(previous.at05, matchIntervals(predicted, truth, 0.5)),
        seconds: addCounts(
          previous.seconds,
          secondCounts(predicted, truth, analysis.durationSeconds),
        ),
      });
    }
    const found = matchIntervals(predictions['ours: highlights (score ≥ threshold)'], truth, 0.5);
    console.log(
      `${difficulty} video ${index + 1}/${options.videos} seed ${seed}: ${analysis.durationSeconds.toFixed(0)} s, ` +
        `${truth.length} true highlights, ${predictions['ours: highlights (score ≥ threshold)'].length} detected, ` +
        `${found.truePositives} matched @0.5`,
    );
  }
  console.log(
    `\nAccuracy on ${options.videos} '${difficulty}' synthetic videos (320x180, micro-averaged, in %):\n`,
  );
  console.log(formatTable(results));
  const ours = scoresOf(results.get('ours: highlights (score ≥ threshold)')?.at05 ?? NO_COUNTS);
  console.log(
    `\nTarget F1@0.5 ≥ 80 %: ${ours.f1 >= 0.8 ? 'met' : 'NOT met'} (${pct(ours.f1).trim()} %)` +
      ` — analysis of these low-res videos ran at ${(analysedSeconds / (analysisMs / 1000)).toFixed(0)}× real time\n`,
  );
  return ours.f1;
}

async function measureSpeed(options: Options, workDir: string): Promise<void> {
  const { videoPath } = await ensureSpeedVideo({
    ffmpegPath: options.ffmpegPath,
    workDir,
    length: 'full',
  });
  const load = os.loadavg()[0] ?? 0;
  const timing = await measureEngine({
    ffmpegPath: options.ffmpegPath,
    ffprobePath: options.ffprobePath,
    videoPath,
    workDir,
  });
  const speed = timing.durationSeconds / timing.analysisSeconds;
  console.log(
    `\nSpeed on a ${timing.durationSeconds.toFixed(0)} s 1280x720 H.264 video (${os.cpus().length} cores, load ${load.toFixed(1)} at start):`,
  );
  console.log(
    `  analysis            ${timing.analysisSeconds.toFixed(1)} s = ${speed.toFixed(1)}× real time (target ≥ 20×: ${speed >= 20 ? 'met' : 'NOT met'})`,
  );
  console.log(`  compilation (crop)  ${timing.compileSeconds.toFixed(1)} s for 60 s of 1080x1920`);
  console.log(
    `  thumbnails          ${timing.thumbnailSeconds.toFixed(1)} s for ${timing.extractCount} extracts`,
  );
  console.log(
    `  file → download     ${timing.totalSeconds.toFixed(1)} s in total (engine only; the whole path` +
      ' through the server is `npm run bench -- --only memes-link`)',
  );
}

export async function main(argv: string[] = process.argv.slice(2)): Promise<void> {
  const options = parseArgs(argv);
  const workDir =
    options.keepDir ?? (await mkdtemp(path.join(os.tmpdir(), 'cadence-memes-bench-')));
  await mkdir(workDir, { recursive: true });
  try {
    for (const difficulty of options.difficulties) {
      await evaluateAccuracy(options, workDir, difficulty);
    }
    if (options.speed) await measureSpeed(options, workDir);
  } finally {
    if (!options.keepDir) await rm(workDir, { recursive: true, force: true });
  }
}

const entry = process.argv[1];
if (entry && import.meta.url === pathToFileURL(entry).href) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
