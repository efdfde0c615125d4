import { rm, stat } from 'node:fs/promises';
import { abortReason, MEDIA_TOOL_MAX_MEMORY_BYTES, runTool, stderrTail } from '../lib/run-tool.ts';

/** Where the ffmpeg and ffprobe binaries are; config.ts decides (FFMPEG_PATH / FFPROBE_PATH, else the system's). */
export interface FfmpegBinaries {
  ffmpeg: string;
  ffprobe: string;
}

export interface RunOptions {
  /** Aborting kills the process (SIGKILL) and rejects with the signal's reason (an AbortError). */
  signal?: AbortSignal;
  /** Called with each `-progress pipe:1` block's `out_time_us` in seconds, when the args ask for it. */
  onProgressSeconds?: (seconds: number) => void;
  /** Keep at most this many bytes of stderr for the error message (default 64 KiB). */
  maxStderrBytes?: number;
  /** Memory the process may use (resident), else it is killed (default MEDIA_TOOL_MAX_MEMORY_BYTES). */
  maxMemoryBytes?: number;
}

export interface RunResult {
  stdout: string;
  stderr: string;
}

export class FfmpegError extends Error {
  constructor(
    message: string,
    readonly exitCode: number | null,
    readonly stderr: string,
  ) {
    super(message);
    this.name = 'FfmpegError';
  }
}

/**
 * Runs ffmpeg or ffprobe (through runTool: an argument array, bounded output and memory) and
 * resolves with its output. Progress: pass `-progress pipe:1 -nostats` in args and an
 * `onProgressSeconds` callback; stdout is then parsed line by line as it streams.
 */
export async function runMediaTool(
  binary: string,
  args: string[],
  options: RunOptions = {},
): Promise<RunResult> {
  const { signal, onProgressSeconds, maxStderrBytes, maxMemoryBytes } = options;
  const exit = await runTool(binary, args, {
    ...(signal && { signal }),
    ...(maxStderrBytes !== undefined && { maxStderrBytes }),
    ...(maxMemoryBytes !== undefined && { maxMemoryBytes }),
    ...(onProgressSeconds && {
      onStdoutLine: (line: string) => {
        const match = /^out_time_us=(\d+)/.exec(line.trim());
        if (match?.[1]) onProgressSeconds(Number(match[1]) / 1_000_000);
      },
    }),
  });
  if (exit.spawnError) throw exit.spawnError;
  if (exit.overMemory) {
    const mebibytes = Math.round((maxMemoryBytes ?? MEDIA_TOOL_MAX_MEMORY_BYTES) / 1024 ** 2);
    throw new FfmpegError(
      `${binary} needed more than ${mebibytes} MiB of memory and was stopped`,
      exit.code,
      exit.stderr,
    );
  }
  if (exit.aborted) throw abortReason(signal);
  if (exit.code !== 0) {
    throw new FfmpegError(
      `${binary} exited with code ${String(exit.code)}: ${stderrTail(exit.stderr, 5)}`,
      exit.code,
      exit.stderr,
    );
  }
  return { stdout: exit.stdout, stderr: exit.stderr };
}

/**
 * ffmpeg exited 0 but left an output missing or empty: it does that when a seek lands past the
 * last decodable frame, or a filter drops every frame. Callers must not read such a file.
 */
export class FfmpegOutputError extends FfmpegError {
  constructor(
    readonly outputPath: string,
    stderr: string,
  ) {
    super(`ffmpeg wrote no output to ${outputPath}`, 0, stderr);
    this.name = 'FfmpegOutputError';
  }
}

/** Size of a file, 0 when it does not exist. */
async function sizeOrZero(filePath: string): Promise<number> {
  try {
    return (await stat(filePath)).size;
  } catch {
    return 0;
  }
}

/**
 * Runs ffmpeg for files it must write (thumbnails, renders, compilations, metadata passes) and
 * checks each exists and is not empty afterwards: exit code 0 alone proves nothing. Rejects with
 * FfmpegOutputError, after removing whatever partial outputs were left, when one is missing.
 */
export async function runFfmpegToFiles(
  ffmpegPath: string,
  args: string[],
  outputPaths: readonly string[],
  options: RunOptions = {},
): Promise<RunResult> {
  const result = await runMediaTool(ffmpegPath, args, options);
  for (const outputPath of outputPaths) {
    if ((await sizeOrZero(outputPath)) === 0) {
      await Promise.all(outputPaths.map((file) => rm(file, { force: true })));
      throw new FfmpegOutputError(outputPath, result.stderr);
    }
  }
  return result;
}
