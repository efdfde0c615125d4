import { spawn } from 'node:child_process';

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
  const { signal, onProgressSeconds, maxStderrBytes = 64 * 1024 } = options;
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
    child.on('error', (error) => {
      signal?.removeEventListener('abort', onAbort);
      reject(error);
    });
    child.on('close', (code) => {
      signal?.removeEventListener('abort', onAbort);
      if (signal?.aborted) {
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
