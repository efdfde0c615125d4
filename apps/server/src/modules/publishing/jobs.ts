import type { Kysely } from 'kysely';
import type PgBoss from 'pg-boss';
import type { Logger } from 'pino';
import { z } from 'zod';
import type { Database } from '../../db/schema.ts';
import { defineQueue, type QueueConcurrency } from '../../jobs/queue.ts';
import { liveWorkerProcesses, registerWorkerProcess } from '../../jobs/worker-process.ts';
import { DEFAULT_DAILY_POST_CAP } from '@cadence/shared/schedule/daily-cap';
import { createDailyCapGuard } from './daily-cap.ts';
import { createPublisher, type Publisher } from './publisher.ts';
import type { PublisherDeps } from './publisher-context.ts';
import type { PullUrls } from './pull-urls.ts';
import { createPublishingRepository } from './repository.ts';
import type { PlatformDriver } from '../../platforms/driver.ts';
import { startWakeTimers } from './wake-timers.ts';

/** Wakes the publisher for one post: publish when due, resume an upload, poll the platform's status. */
export const PUBLISH_QUEUE = 'posts.publish';
/** Every minute: re-queue posts whose wake-up was lost (crash, failed send). */
export const PUBLISH_SWEEP_QUEUE = 'posts.publish-sweep';

/**
 * The sweep's defaults (PUBLISH_SWEEP_INTERVAL_MS, PUBLISH_SWEEP_GRACE_MS): each minute, posts
 * whose wake-up is a minute overdue. pg-boss's cron ticks once a minute at most.
 */
export const PUBLISH_SWEEP = { intervalMs: 60_000, graceMs: 60_000 };

/** Versioned job contract: add a v2 rather than changing v1 once deployed. */
export const publishJobSchema = z.object({ v: z.literal(1), postId: z.uuid() });
export type PublishJob = z.infer<typeof publishJobSchema>;

// The publisher retries the platform's errors itself; pg-boss retries only unexpected crashes.
export const publishQueue = defineQueue({
  name: PUBLISH_QUEUE,
  payload: publishJobSchema,
  expireInSeconds: 3600,
  retryDelaySeconds: 5,
  retryBackoff: true,
  describe: (job) => ({ postId: job.postId }),
});

// Cron jobs carry no payload (pg-boss sends null).
const publishSweepQueue = defineQueue({
  name: PUBLISH_SWEEP_QUEUE,
  payload: z.unknown(),
  expireInSeconds: 10 * 60,
  retryDelaySeconds: 5,
  cron: '* * * * *',
});

/**
 * Queues a wake-up for a post at `startAfter`. Duplicate wake-ups are harmless (the publisher
 * takes a lease on the row), so the singleton key only labels the job for inspection.
 */
export function enqueuePublish(boss: PgBoss, postId: string, startAfter: Date): Promise<void> {
  return publishQueue.send(boss, { v: 1, postId }, { startAfter, singletonKey: postId });
}

/**
 * How long after a post's wake-up its pg-boss job comes due when a timer wakes it (decision 039):
 * the job only stands in for a timer that was lost (a process died, a notification missed), so
 * it does not run the post's queries a second time, in another process, at the due moment.
 */
export const JOB_FALLBACK_MS = 2_000;

/** The durable wake-up behind a timer's: the job, JOB_FALLBACK_MS after `at`. */
export function enqueueFallback(boss: PgBoss, postId: string, at: Date): Promise<void> {
  return enqueuePublish(boss, postId, new Date(at.getTime() + JOB_FALLBACK_MS));
}

/**
 * Fetch settings of the publish queue: up to loops × batchSize posts at once per process. A loop
 * that found work fetches again as soon as its batch is done (jobs/queue.ts), and an idle one looks
 * every `pollingIntervalSeconds` for jobs sent by other processes (timers and NOTIFY wake due posts
 * sooner: wake-timers.ts). The platform's own rate limit (`driver.limits`) is paced separately, by
 * the rate ledger.
 */
export const PUBLISH_FETCH = { loops: 4, batchSize: 25, pollingIntervalSeconds: 0.5 } as const;

/** Timer runs at once on PGlite (one thread for the database and the publisher). */
const PGLITE_TIMER_RUNS = 50;

/** How many publish jobs one process works on at once (loops × batchSize), and how often it looks. */
export interface PublishWorkerOptions {
  /** Fetch loops (default PUBLISH_FETCH.loops). */
  loops?: number;
  /** Jobs per fetch, worked on in parallel (default PUBLISH_FETCH.batchSize). */
  batchSize?: number;
  pollingIntervalSeconds?: number;
  leaseMs?: number;
  retryDelayCapMs?: number;
  /** See PublisherDeps.firstPostIdCheckMs (worker.ts: shorter against a quick sandbox). */
  firstPostIdCheckMs?: number;
  /** See PublisherDeps.onInitTimings (bench/publish-lateness.ts collects them). */
  onInitTimings?: PublisherDeps['onInitTimings'];
}

/** What the publishing workers use, and nothing more. */
export interface PublishingWorkerDeps extends Pick<PublisherDeps, 'tokens' | 'storage' | 'notify'> {
  /**
   * The platform the posts go to (platforms/driver.ts): the composition root builds it
   * (tiktok/tiktok-driver.ts, with the sandbox's window when it counts over another).
   */
  driver: PlatformDriver;
  boss: PgBoss;
  db: Kysely<Database>;
  /** DatabaseHandle.urgentDb: the video init confirmations' lane. */
  urgentDb: Kysely<Database>;
  /** WORKER_CONCURRENCY: publish jobs one process works on at once. */
  concurrency: number;
  /** createPullUrls(config): PULL_FROM_URL when TIKTOK_PULL_FROM_URL_PREFIX is set. */
  pullUrls?: PullUrls | null;
  /** TIKTOK_DAILY_POST_CAP (default 15): posts beyond it are postponed to a day with room. */
  dailyPostCap?: number;
  /** postgres://… : the wake-up timers LISTEN there for other processes' NOTIFY (decision 039). */
  connectionString?: string | null;
  /** How often the sweep runs and how overdue a wake-up it takes (default PUBLISH_SWEEP). */
  sweep?: { intervalMs: number; graceMs: number };
}

/** Registers the publish queue, the minute sweep, and runs a first sweep (restart recovery). */
export async function startPublishingWorkers(
  deps: PublishingWorkerDeps,
  logger: Logger,
  options: PublishWorkerOptions = {},
): Promise<Publisher> {
  const { boss } = deps;
  // Registered in worker_processes: the deaths of its posts' runs are told apart (decision 033).
  const workerProcess = await registerWorkerProcess(deps.db, logger);
  boss.once('stopped', () => {
    workerProcess.stop().catch(() => undefined);
  });
  // Bound below, once the publisher they run exists.
  let timers: Awaited<ReturnType<typeof startWakeTimers>> | null = null;
  const { driver } = deps;
  const repository = createPublishingRepository(deps.db, {
    urgentDb: deps.urgentDb,
    // The driver's limits: the rate ledger paces each account's starts over its window.
    startsPerWindow: driver.limits.startWindow.starts,
    startWindowMs: driver.limits.startWindow.windowMs,
  });
  const publisher = createPublisher({
    workerProcess,
    repository,
    driver,
    tokens: deps.tokens,
    storage: deps.storage,
    // The timer is the precise wake-up (here: only this process knows of it), the job the
    // durable one.
    wake: (postId, at, leadMs) => {
      timers?.arm(postId, at, leadMs);
      return enqueueFallback(boss, postId, at);
    },
    logger,
    dailyCap: createDailyCapGuard(deps.db, deps.dailyPostCap ?? DEFAULT_DAILY_POST_CAP),
    ...(deps.notify && { notify: deps.notify }),
    ...(deps.pullUrls !== null && deps.pullUrls !== undefined && { pullUrls: deps.pullUrls }),
    ...(options.leaseMs !== undefined && { leaseMs: options.leaseMs }),
    ...(options.retryDelayCapMs !== undefined && { retryDelayCapMs: options.retryDelayCapMs }),
    ...(options.firstPostIdCheckMs !== undefined && {
      firstPostIdCheckMs: options.firstPostIdCheckMs,
    }),
    ...(options.onInitTimings && { onInitTimings: options.onInitTimings }),
  });
  // WORKER_CONCURRENCY: publish jobs mostly wait on the platform and the database, so many run at once.
  const fetch: QueueConcurrency =
    options.loops !== undefined || options.batchSize !== undefined
      ? {
          loops: options.loops ?? PUBLISH_FETCH.loops,
          batchSize: options.batchSize ?? PUBLISH_FETCH.batchSize,
        }
      : deps.concurrency;
  const concurrency = typeof fetch === 'number' ? fetch : fetch.loops * fetch.batchSize;
  await publishQueue.work(boss, logger, {
    concurrency: fetch,
    pollingIntervalSeconds: options.pollingIntervalSeconds ?? PUBLISH_FETCH.pollingIntervalSeconds,
    run: (job, run) => publisher.advance(job.postId, run.signal),
    // No giveUp: a job's last failure does not fail its post. A throw before the claim (the
    // database unreachable, say) is not the post's fault, and the sweep wakes the post again once
    // the database answers; a run that claims and then throws or dies alone in its process keeps
    // unfinished_runs counted, so a poison post is failed as publisher_crashed by its next claim
    // after MAX_JOB_ATTEMPTS runs (deaths in company make it run alone first: decision 033).
    // Failing here instead would mark a post the platform already has as failed.
  });
  timers = await startWakeTimers({
    db: deps.db,
    connectionString: deps.connectionString ?? null,
    wakingWithin: (horizonMs) => repository.wakingWithin(horizonMs),
    run: (postId, pause) => publisher.advance(postId, undefined, pause),
    // Each post's announced wake-up goes to one live process (decision 039).
    processId: workerProcess.id,
    liveProcesses: () => liveWorkerProcesses(deps.db),
    // PGlite runs every query, the publisher and (in sandbox mode) the platform's stand-in on one thread:
    // a hundred runs at once made inits outlive the client's 30 s timeout (decision 039).
    concurrency: deps.connectionString ? concurrency : Math.min(concurrency, PGLITE_TIMER_RUNS),
    // Prepared runs at their due instant: all at once (only a confirmation and an init each,
    // their uploads queued behind; decision 039).
    resumeConcurrency: Number.POSITIVE_INFINITY,
    logger,
  });
  const started = timers;
  boss.once('stopped', () => {
    started.stop().catch(() => undefined);
  });
  const sweep = deps.sweep ?? PUBLISH_SWEEP;
  const sweepForgotten = async () => {
    const requeued = await publisher.sweep(sweep.graceMs);
    if (requeued > 0) logger.warn({ requeued }, 'lost publish wake-ups re-queued');
  };
  await publishSweepQueue.work(boss, logger, { concurrency: 1, run: sweepForgotten });
  if (sweep.intervalMs < PUBLISH_SWEEP.intervalMs) {
    // More often than pg-boss's cron can: this process's own timer, beside the minute's job.
    // Each live process sweeps; a post woken twice is harmless (the publisher leases the row).
    let sweeping = false;
    const timer = setInterval(() => {
      if (sweeping) return;
      sweeping = true;
      sweepForgotten()
        .catch((error: unknown) => logger.warn({ err: error }, 'publish sweep failed'))
        .finally(() => {
          sweeping = false;
        });
    }, sweep.intervalMs);
    timer.unref();
    boss.once('stopped', () => clearInterval(timer));
  }
  // A restarted process picks up what a dead one left (leases expire; their posts come back).
  const recovered = await publisher.sweep(0);
  if (recovered > 0) logger.info({ recovered }, 'posts resumed after restart');
  return publisher;
}
