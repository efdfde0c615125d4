import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { runMediaTool } from '../../apps/server/src/media/ffmpeg.ts';

/**
 * Synthetic videos with KNOWN highlights, for the meme detector's tests and evaluation.
 *
 * A video is a sequence of segments: quiet, slowly moving gradients with low, slightly varying
 * noise (the "ordinary footage", with an ordinary hard cut between segments), and the events:
 * - burst: the ground-truth highlight — loud noise and tones while the picture cuts every
 *   0.2–0.5 s between random colours;
 * - music: a steady loud chord over steady footage (loud, but not a highlight);
 * - black: a black stretch; frozen: a still picture;
 * - click: a single 40 ms loud click inside quiet footage (shorter than any clip).
 * Everything derives from the seed, so a run is reproducible.
 */

export type SegmentKind = 'quiet' | 'burst' | 'music' | 'black' | 'frozen' | 'click';

export interface Segment {
  kind: SegmentKind;
  startSeconds: number;
  durationSeconds: number;
  /** Burst: the cut pieces' durations and colours. */
  pieces?: { durationSeconds: number; colour: string }[];
  /** Quiet/click: noise amplitude (0..1); burst: noise amplitude; music: per-tone amplitude. */
  amplitude: number;
  colours: [string, string];
  /** Click: offset of the click inside the segment. */
  clickOffsetSeconds?: number;
  /** Quiet footage: modulate the noise like speech (syllables ~4 Hz, phrases ~0.3 Hz). */
  speechLike?: boolean;
  seed: number;
}

export interface GroundTruthInterval {
  startSeconds: number;
  endSeconds: number;
}

export interface SyntheticPlan {
  seed: number;
  width: number;
  height: number;
  fps: number;
  durationSeconds: number;
  segments: Segment[];
  /** The highlights a good detector must find (the bursts). */
  highlights: GroundTruthInterval[];
  /** Where the negative controls are, for reading results. */
  controls: { kind: SegmentKind; startSeconds: number; endSeconds: number }[];
}

export interface PlanOptions {
  seed: number;
  /** Approximate length; the plan stops adding segments once reached (default 240). */
  targetSeconds?: number;
  width?: number;
  height?: number;
  fps?: number;
  /** Number of bursts (default: 4–7 depending on the seed and length). */
  burstCount?: number;
  /** Include music, black, frozen and click controls (default true). */
  controls?: boolean;
  /**
   * 'easy': bursts ~20 dB over quiet footage with cuts every 0.2–0.5 s. 'hard': talk-level,
   * syllable-modulated background, bursts only ~6–12 dB louder with cuts every 0.3–0.8 s, and
   * more ordinary cuts in the footage (default 'easy').
   */
  difficulty?: 'easy' | 'hard';
}

/** mulberry32: a tiny deterministic PRNG, enough for test data. */
export function createRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const round2 = (value: number) => Math.round(value * 100) / 100;
const round4 = (value: number) => Math.round(value * 10000) / 10000;

function randomColour(random: () => number, minLuma = 0, maxLuma = 255): string {
  for (;;) {
    const r = Math.floor(random() * 256);
    const g = Math.floor(random() * 256);
    const b = Math.floor(random() * 256);
    const luma = 0.299 * r + 0.587 * g + 0.114 * b;
    if (luma >= minLuma && luma <= maxLuma) {
      return `0x${[r, g, b].map((c) => c.toString(16).padStart(2, '0')).join('')}`;
    }
  }
}

function shuffle<TItem>(items: TItem[], random: () => number): TItem[] {
  const copy = [...items];
  for (let i = copy.length - 1; i > 0; i -= 1) {
    const j = Math.floor(random() * (i + 1));
    const a = copy[i];
    const b = copy[j];
    if (a !== undefined && b !== undefined) {
      copy[i] = b;
      copy[j] = a;
    }
  }
  return copy;
}

/** Lays out segments and ground truth from a seed (pure). */
export function planSyntheticVideo(options: PlanOptions): SyntheticPlan {
  const {
    seed,
    targetSeconds = 240,
    width = 320,
    height = 180,
    fps = 30,
    controls = true,
    difficulty = 'easy',
  } = options;
  const hard = difficulty === 'hard';
  const random = createRandom(seed);
  const between = (min: number, max: number) => min + random() * (max - min);
  // Whole frames only: sources round durations up to frames, which would drift the truth.
  const frames = (seconds: number) => round4(Math.max(1, Math.round(seconds * fps)) / fps);
  const burstCount =
    options.burstCount ?? Math.max(2, Math.round(targetSeconds / 45) + Math.floor(random() * 3));
  const events: SegmentKind[] = [
    ...Array.from({ length: burstCount }, (): SegmentKind => 'burst'),
    ...(controls ? (['music', 'black', 'frozen', 'click'] as const) : []),
  ];
  const ordered = shuffle(events, random);
  // Quiet gaps share out the remaining time, at least 12 s so events stay separable.
  const eventSeconds = ordered.length * 8;
  const gapSeconds = Math.max(12, (targetSeconds - eventSeconds) / (ordered.length + 1));

  const segments: Segment[] = [];
  const highlights: GroundTruthInterval[] = [];
  const controlsOut: SyntheticPlan['controls'] = [];
  let cursor = 0;
  const quietColours = (): [string, string] => [
    randomColour(random, 60, 170),
    randomColour(random, 60, 170),
  ];
  const pushQuiet = (durationSeconds: number) => {
    // Ordinary footage cuts now and then: split long gaps in two shots.
    const parts = hard
      ? Math.max(1, Math.floor(durationSeconds / 5))
      : durationSeconds > 16 && random() < 0.6
        ? 2
        : 1;
    for (let part = 0; part < parts; part += 1) {
      const d = frames(durationSeconds / parts);
      segments.push({
        kind: 'quiet',
        startSeconds: round4(cursor),
        durationSeconds: d,
        amplitude: round2(hard ? between(0.15, 0.3) : between(0.06, 0.2)),
        colours: quietColours(),
        speechLike: hard,
        seed: Math.floor(random() * 1e9),
      });
      cursor = round4(cursor + d);
    }
  };

  pushQuiet(round2(between(0.6, 1.4) * gapSeconds));
  for (const kind of ordered) {
    const start = round4(cursor);
    let durationSeconds: number;
    const segment: Segment = {
      kind,
      startSeconds: start,
      durationSeconds: 0,
      amplitude: 0,
      colours: quietColours(),
      seed: Math.floor(random() * 1e9),
    };
    switch (kind) {
      case 'burst': {
        durationSeconds = 0;
        const target = between(3, 6);
        const pieces: NonNullable<Segment['pieces']> = [];
        while (durationSeconds < target - 0.15) {
          const piece = frames(
            Math.min(hard ? between(0.3, 0.8) : between(0.2, 0.5), target - durationSeconds),
          );
          pieces.push({ durationSeconds: piece, colour: randomColour(random) });
          durationSeconds = round4(durationSeconds + piece);
        }
        segment.pieces = pieces;
        segment.amplitude = round2(hard ? between(0.25, 0.45) : between(0.35, 0.7));
        highlights.push({ startSeconds: start, endSeconds: round4(start + durationSeconds) });
        break;
      }
      case 'music':
        durationSeconds = frames(between(25, 40));
        segment.amplitude = round2(between(0.2, 0.3));
        break;
      case 'black':
        durationSeconds = frames(between(3, 8));
        segment.amplitude = round2(between(0.02, 0.05));
        break;
      case 'frozen':
        durationSeconds = frames(between(4, 8));
        segment.amplitude = round2(between(0.06, 0.2));
        break;
      case 'click':
        durationSeconds = frames(between(6, 10));
        segment.amplitude = round2(between(0.06, 0.2));
        segment.clickOffsetSeconds = frames(between(2, durationSeconds - 2));
        break;
      case 'quiet':
        durationSeconds = frames(gapSeconds);
        segment.amplitude = round2(between(0.02, 0.05));
        break;
    }
    segment.durationSeconds = durationSeconds;
    segments.push(segment);
    if (kind !== 'burst') {
      controlsOut.push({ kind, startSeconds: start, endSeconds: round4(start + durationSeconds) });
    }
    cursor = round4(cursor + durationSeconds);
    pushQuiet(round2(between(0.6, 1.4) * gapSeconds));
  }

  return {
    seed,
    width,
    height,
    fps,
    durationSeconds: round4(cursor),
    segments,
    highlights,
    controls: controlsOut,
  };
}

const AUDIO_FORMAT = 'aformat=sample_fmts=fltp:sample_rates=44100:channel_layouts=stereo';

/**
 * A source's `d` for exactly the planned number of frames: sources emit frames while t < d, so a
 * rounded-up d would add one frame per segment and drift the ground truth.
 */
function frameDuration(plan: SyntheticPlan, seconds: number): number {
  return round4((Math.round(seconds * plan.fps) - 0.5) / plan.fps);
}

function quietVideo(plan: SyntheticPlan, segment: Segment, speed: number): string {
  const [c0, c1] = segment.colours;
  return (
    `gradients=s=${plan.width}x${plan.height}:r=${plan.fps}:d=${frameDuration(plan, segment.durationSeconds)}` +
    `:c0=${c0}:c1=${c1}:speed=${speed}:seed=${segment.seed % 4294967295}`
  );
}

function noise(durationSeconds: number, amplitude: number, seed: number, colour = 'pink'): string {
  return `anoisesrc=d=${durationSeconds}:c=${colour}:r=44100:a=${amplitude}:seed=${seed % 4294967295}`;
}

/** One labelled video and audio chain per segment, then a concat (pure). */
export function buildSyntheticFilterGraph(plan: SyntheticPlan): string {
  const chains: string[] = [];
  const fpsFix = `fps=${plan.fps},format=yuv420p,setsar=1`;
  plan.segments.forEach((segment, index) => {
    const v = `v${index}`;
    const a = `a${index}`;
    const d = segment.durationSeconds;
    switch (segment.kind) {
      case 'quiet': {
        chains.push(`${quietVideo(plan, segment, 0.01)},${fpsFix}[${v}]`);
        const phase = segment.seed % 7;
        const speech = segment.speechLike
          ? `,volume='0.35+0.65*abs(sin(2*PI*4*t+${phase}))*(0.6+0.4*sin(2*PI*0.3*t+${phase}))':eval=frame`
          : '';
        chains.push(`${noise(d, segment.amplitude, segment.seed)}${speech},${AUDIO_FORMAT}[${a}]`);
        break;
      }
      case 'burst': {
        const pieces = segment.pieces ?? [];
        pieces.forEach((piece, p) => {
          chains.push(
            `color=c=${piece.colour}:s=${plan.width}x${plan.height}:r=${plan.fps}:d=${frameDuration(plan, piece.durationSeconds)}[${v}p${p}]`,
          );
        });
        chains.push(
          `${pieces.map((_, p) => `[${v}p${p}]`).join('')}concat=n=${pieces.length}:v=1:a=0,${fpsFix}[${v}]`,
        );
        // Loud white noise plus a tone sweep-like pair: a cheer, a crash, a scream.
        chains.push(
          `${noise(d, segment.amplitude, segment.seed, 'white')}[${a}n];` +
            `sine=f=${440 + (segment.seed % 400)}:r=44100:d=${d}[${a}s];` +
            `[${a}n][${a}s]amix=inputs=2:normalize=0,${AUDIO_FORMAT}[${a}]`,
        );
        break;
      }
      case 'music': {
        const amp = segment.amplitude;
        const root = 196 + (segment.seed % 60);
        const chord = [1, 1.26, 1.5]
          .map((ratio) => `${amp}*sin(2*PI*${round2(root * ratio)}*t)`)
          .join('+');
        chains.push(`${quietVideo(plan, segment, 0.01)},${fpsFix}[${v}]`);
        chains.push(`aevalsrc='${chord}':s=44100:d=${d},${AUDIO_FORMAT}[${a}]`);
        break;
      }
      case 'black':
        chains.push(
          `color=c=black:s=${plan.width}x${plan.height}:r=${plan.fps}:d=${frameDuration(plan, d)},${fpsFix}[${v}]`,
        );
        chains.push(`${noise(d, segment.amplitude, segment.seed)},${AUDIO_FORMAT}[${a}]`);
        break;
      case 'frozen':
        chains.push(`${quietVideo(plan, segment, 0.00001)},${fpsFix}[${v}]`);
        chains.push(`${noise(d, segment.amplitude, segment.seed)},${AUDIO_FORMAT}[${a}]`);
        break;
      case 'click': {
        const before = segment.clickOffsetSeconds ?? d / 2;
        const clickSeconds = 0.04;
        const after = round4(d - before - clickSeconds);
        chains.push(`${quietVideo(plan, segment, 0.01)},${fpsFix}[${v}]`);
        chains.push(
          `${noise(before, segment.amplitude, segment.seed)},${AUDIO_FORMAT}[${a}b];` +
            `${noise(clickSeconds, 0.9, segment.seed + 1, 'white')},${AUDIO_FORMAT}[${a}c];` +
            `${noise(after, segment.amplitude, segment.seed + 2)},${AUDIO_FORMAT}[${a}e];` +
            `[${a}b][${a}c][${a}e]concat=n=3:v=0:a=1[${a}]`,
        );
        break;
      }
    }
  });
  const inputs = plan.segments.map((_, index) => `[v${index}][a${index}]`).join('');
  chains.push(`${inputs}concat=n=${plan.segments.length}:v=1:a=1[vout][aout]`);
  return chains.join(';');
}

export interface EncodeOptions {
  /** x264 preset: 'ultrafast' for the small evaluation set, 'superfast' for the 720p speed file. */
  preset?: string;
  crf?: number;
  /** Average bitrate such as '2M' instead of crf (YouTube's 720p H.264 is about 2 Mbit/s). */
  bitrate?: string;
  /** Film grain strength (ffmpeg `noise` alls); 0 for none. Grain gives the encoder real work. */
  grain?: number;
  /** Render at the plan's size, then upscale: the sources are slow to draw at 720p. */
  scaleTo?: { width: number; height: number };
}

/** The ffmpeg arguments that render a plan to an MP4 (pure). */
export function buildSyntheticVideoArgs(
  plan: SyntheticPlan,
  outputPath: string,
  options: EncodeOptions = {},
): string[] {
  const { preset = 'ultrafast', crf = 26, grain = 0, bitrate, scaleTo } = options;
  const graph = buildSyntheticFilterGraph(plan);
  const postFilters = [
    ...(scaleTo ? [`scale=${scaleTo.width}:${scaleTo.height}:flags=bicubic`] : []),
    ...(grain > 0 ? [`noise=alls=${grain}:allf=t`] : []),
  ];
  const post = postFilters.length > 0 ? `;[vout]${postFilters.join(',')}[vfinal]` : '';
  const rateControl = bitrate
    ? ['-b:v', bitrate, '-maxrate', bitrate, '-bufsize', bitrate]
    : ['-crf', String(crf)];
  return [
    '-hide_banner',
    '-nostdin',
    '-y',
    '-filter_complex',
    graph + post,
    '-map',
    post ? '[vfinal]' : '[vout]',
    '-map',
    '[aout]',
    '-c:v',
    'libx264',
    '-preset',
    preset,
    ...rateControl,
    '-pix_fmt',
    'yuv420p',
    '-g',
    String(plan.fps * 2),
    '-c:a',
    'aac',
    '-b:a',
    '96k',
    '-movflags',
    '+faststart',
    outputPath,
  ];
}

export interface GeneratedVideo {
  videoPath: string;
  truthPath: string;
  plan: SyntheticPlan;
}

/** Renders a seeded synthetic video and its ground-truth JSON into outputDir. */
export async function generateSyntheticVideo(params: {
  ffmpegPath: string;
  outputDir: string;
  plan: SyntheticPlan;
  name?: string;
  encode?: EncodeOptions;
  signal?: AbortSignal;
}): Promise<GeneratedVideo> {
  const { ffmpegPath, outputDir, plan, encode, signal } = params;
  const name = params.name ?? `synthetic-${plan.seed}-${plan.width}x${plan.height}`;
  const videoPath = path.join(outputDir, `${name}.mp4`);
  const truthPath = path.join(outputDir, `${name}.json`);
  await runMediaTool(ffmpegPath, buildSyntheticVideoArgs(plan, videoPath, encode), { signal });
  await writeFile(truthPath, `${JSON.stringify(plan, null, 2)}\n`);
  return { videoPath, truthPath, plan };
}
