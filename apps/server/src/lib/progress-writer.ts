/**
 * The progress writes of a running job: throttled (at most every `intervalMs`, default 500, and
 * only once the fraction moved by `step`, default 0.01), chained so they land in order, and held
 * in [0, 0.99] because 1 is reserved for the finished row (100 % must come with its result).
 */
export function createProgressWriter({
  write,
  onError,
  intervalMs = 500,
  step = 0.01,
}: {
  write: (fraction: number) => Promise<void>;
  /** A failed write is reported, not thrown: progress is informative, the job goes on. */
  onError: (error: unknown) => void;
  intervalMs?: number;
  step?: number;
}): { onProgress: (fraction: number) => void; settled: () => Promise<void> } {
  let writes = Promise.resolve();
  let lastWritten = 0;
  let lastWrittenAt = 0;
  return {
    onProgress(fraction) {
      const now = Date.now();
      if (fraction - lastWritten < step || now - lastWrittenAt < intervalMs) return;
      lastWritten = fraction;
      lastWrittenAt = now;
      const stored = Math.min(Math.max(fraction, 0), 0.99);
      writes = writes.then(() => write(stored)).catch(onError);
    },
    /** Resolves once every write asked for so far has landed (or failed). */
    settled: () => writes,
  };
}
