import { spawn, type ChildProcess } from 'node:child_process';
import { readFile } from 'node:fs/promises';

/**
 * The one way Cadence runs an external program (ffmpeg, ffprobe, yt-dlp): an argument array,
 * never a shell; bounded output; killed (SIGKILL) on abort, on timeout or when its resident memory
 * passes a ceiling. It never rejects: the caller reads the exit and decides what it means in its
 * own terms (FfmpegError, VideoFetchError, a health check's state).
 */
export interface ToolRunOptions {
  /** Aborting kills the process; the exit then says `aborted`. */
  signal?: AbortSignal;
  /** Each stdout line as it streams (split on \n, \r\n or \r); stdout is then not collected. */
  onStdoutLine?: (line: string) => void;
  /** stdout kept from its start (default 16 MiB: ffprobe's JSON for a long file is large). */
  maxStdoutBytes?: number;
  /** stderr kept from its end, where programs print why they failed (default 64 KiB). */
  maxStderrBytes?: number;
  /** Resident memory the process may use, else it is killed (default MEDIA_TOOL_MAX_MEMORY_BYTES). */
  maxMemoryBytes?: number;
  /** Killed after this long; the exit then says `timedOut`. */
  timeoutMs?: number;
}

export interface ToolExit {
  /** The exit code; null when it could not start or was killed. */
  code: number | null;
  /** Why it could not start (ENOENT, EACCES…), else null. */
  spawnError: NodeJS.ErrnoException | null;
  stdout: string;
  stderr: string;
  aborted: boolean;
  timedOut: boolean;
  overMemory: boolean;
}

/**
 * Memory one run may take. A real compilation or render (1080×1920) stays under 1 GiB; a crafted
 * file (timestamps jumping by hours) made ffmpeg grow past 10 GB in a minute and starve the whole
 * machine. Above this the process is killed and fails like any other error of its program.
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

export function runTool(
  binary: string,
  args: readonly string[],
  options: ToolRunOptions = {},
): Promise<ToolExit> {
  const {
    signal,
    onStdoutLine,
    maxStdoutBytes = 16 * 1024 ** 2,
    maxStderrBytes = 64 * 1024,
    maxMemoryBytes = MEDIA_TOOL_MAX_MEMORY_BYTES,
    timeoutMs,
  } = options;
  const exit: ToolExit = {
    code: null,
    spawnError: null,
    stdout: '',
    stderr: '',
    aborted: false,
    timedOut: false,
    overMemory: false,
  };
  return new Promise((resolve) => {
    if (signal?.aborted) {
      resolve({ ...exit, aborted: true });
      return;
    }
    let child: ChildProcess;
    try {
      child = spawn(binary, [...args], { stdio: ['ignore', 'pipe', 'pipe'], shell: false });
    } catch (error) {
      // e.g. an empty path: spawn throws instead of emitting 'error'.
      resolve({ ...exit, spawnError: error instanceof Error ? error : new Error(String(error)) });
      return;
    }
    const kill = () => child.kill('SIGKILL');
    const onAbort = () => {
      exit.aborted = true;
      kill();
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    const timeout =
      timeoutMs === undefined
        ? undefined
        : setTimeout(() => {
            exit.timedOut = true;
            kill();
          }, timeoutMs);
    // No rlimit from Node: the resident size is watched instead (Linux; elsewhere unbounded).
    const { pid } = child;
    const memoryWatch =
      pid === undefined
        ? undefined
        : setInterval(() => {
            void residentBytes(pid).then((bytes) => {
              if (bytes !== null && bytes > maxMemoryBytes && child.exitCode === null) {
                exit.overMemory = true;
                kill();
              }
            });
          }, MEMORY_CHECK_INTERVAL_MS);
    memoryWatch?.unref();

    let pending = '';
    child.stdout?.setEncoding('utf8');
    child.stderr?.setEncoding('utf8');
    child.stdout?.on('data', (chunk: string) => {
      if (!onStdoutLine) {
        if (exit.stdout.length < maxStdoutBytes) {
          exit.stdout = (exit.stdout + chunk).slice(0, maxStdoutBytes);
        }
        return;
      }
      pending += chunk;
      const lines = pending.split(/\r?\n|\r/);
      pending = lines.pop() ?? '';
      for (const line of lines) onStdoutLine(line);
    });
    child.stderr?.on('data', (chunk: string) => {
      exit.stderr = (exit.stderr + chunk).slice(-maxStderrBytes);
    });

    let settled = false;
    const finish = () => {
      if (settled) return;
      settled = true;
      clearInterval(memoryWatch);
      clearTimeout(timeout);
      signal?.removeEventListener('abort', onAbort);
      if (pending && onStdoutLine) onStdoutLine(pending);
      resolve(exit);
    };
    child.on('error', (error: NodeJS.ErrnoException) => {
      // When it could not start; an error after a start (a failed kill) waits for 'close'.
      if (child.pid !== undefined) return;
      exit.spawnError = error;
      finish();
    });
    child.on('close', (code) => {
      exit.code = code;
      finish();
    });
  });
}

/** The last lines of a program's stderr, for an error message. */
export function stderrTail(stderr: string, lines: number): string {
  return stderr.trim().split('\n').slice(-lines).join('\n');
}

/** What an aborted run rejects with: the signal's reason, else an AbortError. */
export function abortReason(signal: AbortSignal | undefined): Error {
  return signal?.reason instanceof Error
    ? signal.reason
    : new DOMException('The operation was aborted', 'AbortError');
}
