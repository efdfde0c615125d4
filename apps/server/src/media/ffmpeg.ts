import { spawn } from 'node:child_process';
import { readFile, rm, stat } from 'node:fs/promises';

/** Where the ffmpeg and ffprobe binaries are; config.ts decides (FFMPEG_PATH / FFPROBE_PATH, else the system's). */
export interface FfmpegBinaries {
  ffmpeg: string;
  ffprobe: string;
}

export interface RunOptions {
  /** Aborting kills the process (SIGKILL) and rejects with an AbortError. */
  signal?: AbortSignal;
  /** Called with each `-progress pipe:1` block's `out_time_us` in seconds, when the args ask for it. */
  onProgressSeconds?: (seconds: number) => void;
  /** Keep at most this many bytes of stderr for the error message (default 64 KiB). */
  maxStderrBytes?: number;
  /** Memory the process may use (resident), else it is killed (default MEDIA_TOOL_MAX_MEMORY_BYTES). */
  maxMemoryBytes?: number;
}

/**
 * Memory one ffmpeg/ffprobe run may take. A real compilation or render (1080×1920) stays under
 * 1 GiB; a crafted file (timestamps jumping by hours) made one grow past 10 GB in a minute and
 * starve the whole machine. Above this it is killed and fails like any other ffmpeg error.
 */
export const MEDIA_TOOL_MAX_MEMORY_BYTES = 4 * 1024 ** 3;
/** How often the resident size is read: growth of ~0.5 GB/s overshoots by little. */
const MEMORY_CHECK_INTERVAL_MS = 200;

/** Resident memory of a process, from /proc (Linux); null elsewhere or once it is gone. */
async function residentBytes(pid: number): Promise<number | null> {
  try {
    const match = /^VmRSS:\s+(\d+) kB/m.exec(await readFile(`/proc/${pid}/status`, 'utf8'));
    return match?.[1] ? Number(match[1]) * 1024 : null;
  } catch {
    return null;
  }
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
 * Runs a binary (ffmpeg, ffprobe) with an argument array — never a shell string — and
 * resolves with its output. Progress: pass `-progress pipe:1 -nostats` in args and an
 * `onProgressSeconds` callback; stdout is then parsed line by line as it streams.
 */
export function runMediaTool(
  binary: string,
  args: string[],
  options: RunOptions = {},
): Promise<RunResult> {
  const {
    signal,
    onProgressSeconds,
    maxStderrBytes = 64 * 1024,
    maxMemoryBytes = MEDIA_TOOL_MAX_MEMORY_BYTES,
  } = options;
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(
        signal.reason instanceof Error ? signal.reason : new DOMException('Aborted', 'AbortError'),
      );
      return;
    }
    const child = spawn(binary, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    let pending = '';
    child.stdout.setEncoding('utf8');
    child.stderr.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      if (!onProgressSeconds) {
        stdout += chunk;
        return;
      }
      pending += chunk;
      const lines = pending.split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines) {
        const match = /^out_time_us=(\d+)/.exec(line.trim());
        if (match?.[1]) onProgressSeconds(Number(match[1]) / 1_000_000);
      }
    });
    child.stderr.on('data', (chunk: string) => {
      stderr += chunk;
      if (stderr.length > maxStderrBytes) stderr = stderr.slice(-maxStderrBytes);
    });
    const onAbort = () => child.kill('SIGKILL');
    signal?.addEventListener('abort', onAbort, { once: true });
    // No rlimit from Node: the resident size is watched instead (Linux; elsewhere unbounded).
    let overMemory = false;
    const { pid } = child;
    const memoryWatch =
      pid === undefined
        ? undefined
        : setInterval(() => {
            void residentBytes(pid).then((bytes) => {
              if (bytes !== null && bytes > maxMemoryBytes && child.exitCode === null) {
                overMemory = true;
                child.kill('SIGKILL');
              }
            });
          }, MEMORY_CHECK_INTERVAL_MS);
    memoryWatch?.unref();
    child.on('error', (error) => {
      clearInterval(memoryWatch);
      signal?.removeEventListener('abort', onAbort);
      reject(error);
    });
    child.on('close', (code) => {
      clearInterval(memoryWatch);
      signal?.removeEventListener('abort', onAbort);
      if (overMemory) {
        const mebibytes = Math.round(maxMemoryBytes / 1024 ** 2);
        reject(
          new FfmpegError(
            `${binary} needed more than ${mebibytes} MiB of memory and was stopped`,
            code,
            stderr,
          ),
        );
      } else if (signal?.aborted) {
        reject(
          signal.reason instanceof Error
            ? signal.reason
            : new DOMException('Aborted', 'AbortError'),
        );
      } else if (code === 0) {
        resolve({ stdout, stderr });
      } else {
        const lastLines = stderr.trim().split('\n').slice(-5).join('\n');
        reject(
          new FfmpegError(`${binary} exited with code ${String(code)}: ${lastLines}`, code, stderr),
        );
      }
    });
  });
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
