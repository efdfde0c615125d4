// The crash-safe publisher. Every call to `advance` takes a lease on the post, does the next step
// its row says (start → upload → status checks) through the post's platform driver, records
// progress before moving on, and hands the post to a later wake-up. Progress lives in the row,
// never in memory: any worker can continue any post.
import { runPost } from './post-run.ts';
import {
  createPublisherContext,
  type AdvanceOutcome,
  type PublisherContext,
  type PublisherDeps,
  type RunPause,
} from './publisher-context.ts';
import { lookUpPostId } from './status-checks.ts';

/** A post turned away while another runs alone here comes back this soon (maybe elsewhere). */
const DEFER_MS = 2_000;
/** A post waiting to run alone asks again this soon (here or in another process). */
const ALONE_RETRY_MS = 1_000;

/** Wake-ups the sweep sends in parallel: each is one INSERT, and pg-boss's pool holds 5 connections. */
const SWEEP_SENDS_AT_ONCE = 4;

/**
 * Whether the post has a step to run now, and a place in this process to run it: a post whose
 * runs died together with others twice in a row runs alone in its process, so that a death then
 * is its own doing (a poison post), not a kill from outside.
 */
async function admitAndRun(
  ctx: PublisherContext,
  postId: string,
  jobSignal?: AbortSignal,
  pause?: RunPause,
): Promise<AdvanceOutcome> {
  const current = await ctx.repository.findStatus(postId);
  ctx.timings.lap(postId, 'status');
  if (current?.status === 'completed' && current.awaiting_post_id) {
    return lookUpPostId(ctx, postId);
  }
  if (!current || (current.status !== 'pending' && current.status !== 'publishing'))
    return 'not_ready';
  if (current.status === 'pending' && !current.due_soon) return 'not_ready';
  if (current.leased) return 'busy';
  const alone = current.runs_alone;
  const { workerProcess } = ctx;
  const admitted = alone ? await workerProcess.enterAlone() : workerProcess.enter();
  if (!admitted) {
    await ctx.wake(postId, new Date(Date.now() + (alone ? ALONE_RETRY_MS : DEFER_MS)));
    return 'deferred';
  }
  if (alone) ctx.logger.warn({ postId }, 'post died with others twice in a row: it runs alone');
  // An abandoned job's promise may never settle: its run ends with its signal.
  let left = false;
  const leave = () => {
    if (left) return;
    left = true;
    workerProcess.leave();
  };
  jobSignal?.addEventListener('abort', leave, { once: true });
  try {
    return await runPost(ctx, postId, current, jobSignal, pause);
  } finally {
    jobSignal?.removeEventListener('abort', leave);
    leave();
  }
}

/** Re-queues posts whose wake-up is `graceMs` overdue (lost job, dead worker); returns how many. */
async function sweep(ctx: PublisherContext, graceMs: number): Promise<number> {
  const forgotten = await ctx.repository.takeForgotten(graceMs);
  // A restarted worker may find hundreds of open posts: one send at a time took a minute under
  // load, while its posts waited. A few sends at once, bounded so the pool is not exhausted.
  let next = 0;
  const sender = async () => {
    for (let item = forgotten[next++]; item !== undefined; item = forgotten[next++]) {
      await ctx.wake(item.id, item.wakeAt);
    }
  };
  await Promise.all(Array.from({ length: SWEEP_SENDS_AT_ONCE }, sender));
  return forgotten.length;
}

export function createPublisher(deps: PublisherDeps) {
  const ctx = createPublisherContext(deps);
  /** Posts this process is advancing now. */
  const advancing = new Set<string>();

  async function advanceOnce(
    postId: string,
    jobSignal?: AbortSignal,
    pause?: RunPause,
  ): Promise<AdvanceOutcome> {
    ctx.timings.start(postId);
    try {
      return await admitAndRun(ctx, postId, jobSignal, pause);
    } finally {
      ctx.timings.finish(postId);
    }
  }

  return {
    /** Does the next step for a post (the handler of every publish job). Never throws for the platform's errors. */
    async advance(
      postId: string,
      jobSignal?: AbortSignal,
      pause?: RunPause,
    ): Promise<AdvanceOutcome> {
      // Its timer and its job fired together here: the run already going decides (as its lease
      // would), without a second round of queries. An abandoned job's run stops counting.
      if (advancing.has(postId)) return 'busy';
      advancing.add(postId);
      const forget = () => advancing.delete(postId);
      jobSignal?.addEventListener('abort', forget, { once: true });
      try {
        return await advanceOnce(postId, jobSignal, pause);
      } finally {
        jobSignal?.removeEventListener('abort', forget);
        forget();
      }
    },

    /** Re-queues posts whose wake-up is `graceMs` overdue (lost job, dead worker); returns how many. */
    sweep: (graceMs: number) => sweep(ctx, graceMs),
  };
}

export type Publisher = ReturnType<typeof createPublisher>;
