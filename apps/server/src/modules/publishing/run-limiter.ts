import type { RunPause } from './publisher-context.ts';

/**
 * At most `limit` runs at once; the rest wait in order. A run that only waits (a prepared post
 * before its due time) lets its place go (`idle`) and takes one back (`resume`) before any run
 * that has not started, within `resumeLimit`: at the due instant the prepared posts, whose
 * confirmation and init are all that is left, go first. Once its init is answered, such a run
 * goes to the back of the queue for its upload (`requeue`), so that all inits leave before the
 * uploads that follow them.
 */
export function createLimiter(limit: number, resumeLimit: number) {
  let running = 0;
  const waiting: (() => void)[] = [];
  const resuming: (() => void)[] = [];
  const next = () => {
    if (running < resumeLimit && resuming.length > 0) resuming.shift()?.();
    else if (running < limit) waiting.shift()?.();
  };
  const take = async (queue: (() => void)[], bound: number) => {
    if (running >= bound) await new Promise<void>((go) => queue.push(go));
    running += 1;
  };
  return async <TResult>(task: (pause: RunPause) => Promise<TResult>): Promise<TResult> => {
    await take(waiting, limit);
    let holding = true;
    const idle = () => {
      if (!holding) return;
      holding = false;
      running -= 1;
      next();
    };
    const pause: RunPause = {
      idle,
      async resume() {
        if (holding) return;
        await take(resuming, resumeLimit);
        holding = true;
      },
      async requeue() {
        idle();
        await take(waiting, limit);
        holding = true;
      },
    };
    try {
      return await task(pause);
    } finally {
      if (holding) {
        running -= 1;
        next();
      }
    }
  };
}
