import { rm } from 'node:fs/promises';
import { runFfmpegToFiles, runMediaTool } from '../../../media/ffmpeg.ts';
import { buildStoryRenderArgs, storyDurationSeconds } from './story-render-args.ts';
import type { FfmpegCapabilities, StoryRenderInput } from './story-render-args.ts';

export interface RenderStoryOptions extends StoryRenderInput {
  ffmpegPath: string;
  /** Aborting kills ffmpeg and rejects with the abort reason (an AbortError by default). */
  signal?: AbortSignal;
  /** Called with the share rendered so far, 0..1, non-decreasing; 1 once the file is complete. */
  onProgress?: (fraction: number) => void;
  /** Skip detection (tests, or a caller that already knows its build). */
  capabilities?: FfmpegCapabilities;
}

const capabilityCache = new Map<string, Promise<FfmpegCapabilities>>();

/** Which optional filters this ffmpeg build has; asked once per binary path. */
export function detectFfmpegCapabilities(ffmpegPath: string): Promise<FfmpegCapabilities> {
  let cached = capabilityCache.get(ffmpegPath);
  if (!cached) {
    cached = runMediaTool(ffmpegPath, ['-hide_banner', '-filters']).then(({ stdout }) => ({
      zscale: /^\s*\S+\s+zscale\s/m.test(stdout),
    }));
    // A failed detection (binary missing) must not be remembered forever.
    void cached.catch(() => capabilityCache.delete(ffmpegPath));
    capabilityCache.set(ffmpegPath, cached);
  }
  return cached;
}

/**
 * Renders a story (see buildStoryRenderArgs) to `outputPath`. Resolves with the story's duration
 * in seconds. Rejects with FfmpegError when ffmpeg fails (FfmpegOutputError when it wrote nothing),
 * or the abort reason when cancelled; either way the partial output file is removed.
 */
export async function renderStory(
  options: RenderStoryOptions,
): Promise<{ durationSeconds: number }> {
  const { ffmpegPath, signal, onProgress } = options;
  const capabilities = options.capabilities ?? (await detectFfmpegCapabilities(ffmpegPath));
  const durationSeconds = storyDurationSeconds(options.top.probe);
  const args = buildStoryRenderArgs(options, capabilities);
  let reported = 0;
  const report = (fraction: number) => {
    // ffmpeg's out_time can briefly go backwards or exceed the duration (audio padding): clamp.
    const clamped = Math.min(1, Math.max(reported, fraction));
    if (clamped > reported || (clamped === 1 && reported < 1)) {
      reported = clamped;
      onProgress?.(clamped);
    }
  };
  try {
    await runFfmpegToFiles(ffmpegPath, args, [options.outputPath], {
      signal,
      onProgressSeconds: (seconds) => {
        // Hold back 1 until the file is finalised (faststart rewrites it after the last frame).
        if (durationSeconds > 0) report(Math.min(0.999, seconds / durationSeconds));
      },
    });
  } catch (error) {
    // A cancelled or failed render leaves a truncated MP4 that must never be offered for download.
    await rm(options.outputPath, { force: true });
    throw error;
  }
  report(1);
  return { durationSeconds };
}
