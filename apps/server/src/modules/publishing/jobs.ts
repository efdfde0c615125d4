import type PgBoss from 'pg-boss';
import type { Logger } from 'pino';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { createPublisher, type Publisher } from './publisher.ts';
import { createPublishingRepository } from './repository.ts';

/** Wakes the publisher for one post: publish when due, resume an upload, poll TikTok's status. */
export const PUBLISH_QUEUE = 'posts.publish';
/** Every minute: re-queue posts whose wake-up was lost (crash, failed send). */
export const PUBLISH_SWEEP_QUEUE = 'posts.publish-sweep';

/** Versioned job contract: add a v2 rather than changing v1 once deployed. */
export const publishJobSchema = z.object({ v: z.literal(1), postId: z.uuid() });
export type PublishJob = z.infer<typeof publishJobSchema>;

const ensured = new WeakSet<PgBoss>();

/** createQueue is idempotent but costs a round trip: once per boss instance is enough. */
async function ensureQueue(boss: PgBoss): Promise<void> {
  if (ensured.has(boss)) return;
  await boss.createQueue(PUBLISH_QUEUE);
  ensured.add(boss);
}

/**
 * Queues a wake-up for a post at `startAfter`. Duplicate wake-ups are harmless (the publisher
 * takes a lease on the row), so the singleton key only labels the job for inspection.
 */
export async function enqueuePublish(
  boss: PgBoss,
  postId: string,
  startAfter: Date,
): Promise<void> {
  await ensureQueue(boss);
  const job: PublishJob = { v: 1, postId };
  await boss.send(PUBLISH_QUEUE, job, {
    startAfter,
    singletonKey: postId,
    // The publisher retries TikTok errors itself; pg-boss retries only unexpected crashes.
    retryLimit: 3,
    retryDelay: 5,
    retryBackoff: true,
    expireInSeconds: 3600,
  });
}

/**
 * Fetch settings of the publish queue. pg-boss 10 waits `pollingIntervalSeconds` between fetches of
 * a loop even when it found work, so one process starts at most loops × batchSize / interval posts
 * per second (here 200/s): enough for a minute with thousands of posts due, while TikTok's own rate
 * limit (6 inits per minute per account) is enforced separately by the init pacing.
 */
export const PUBLISH_FETCH = { loops: 4, batchSize: 25, pollingIntervalSeconds: 0.5 } as const;

/** How many publish jobs one process works on at once (loops × batchSize), and how often it looks. */
export interface PublishWorkerOptions {
  /** Fetch loops (default PUBLISH_FETCH.loops). */
  loops?: number;
  /** Jobs per fetch, worked on in parallel (default PUBLISH_FETCH.batchSize). */
  batchSize?: number;
  pollingIntervalSeconds?: number;
  leaseMs?: number;
  retryDelayCapMs?: number;
}

/** Registers the publish queue, the minute sweep, and runs a first sweep (restart recovery). */
export async function startPublishingWorkers(
  context: AppContext,
  logger: Logger,
  options: PublishWorkerOptions = {},
): Promise<Publisher> {
  const { boss } = context;
  const publisher = createPublisher({
    repository: createPublishingRepository(context.database.db),
    tiktok: context.tiktok,
    tokens: context.tokens,
    storage: context.storage,
    wake: (postId, at) => enqueuePublish(boss, postId, at),
    logger,
    ...(options.leaseMs !== undefined && { leaseMs: options.leaseMs }),
    ...(options.retryDelayCapMs !== undefined && { retryDelayCapMs: options.retryDelayCapMs }),
  });
  await ensureQueue(boss);
  const loops = options.loops ?? PUBLISH_FETCH.loops;
  const batchSize = options.batchSize ?? PUBLISH_FETCH.batchSize;
  const pollingIntervalSeconds =
    options.pollingIntervalSeconds ?? PUBLISH_FETCH.pollingIntervalSeconds;
  // pg-boss 10 runs a loop's batch to completion before fetching again: several loops of small
  // batches, each job of a batch in parallel, keep up to loops × batchSize posts moving at once.
  for (let loop = 0; loop < loops; loop++) {
    await boss.work<PublishJob>(
      PUBLISH_QUEUE,
      { batchSize, pollingIntervalSeconds },
      async (jobs) => {
        await Promise.all(
          jobs.map(async (job) => {
            const parsed = publishJobSchema.safeParse(job.data);
            if (!parsed.success) {
              logger.error({ jobId: job.id }, 'malformed publish job dropped');
              return;
            }
            try {
              await publisher.advance(parsed.data.postId);
            } catch (error) {
              // Only this job is retried by pg-boss (a batch that throws would fail all of them).
              logger.error({ err: error, postId: parsed.data.postId }, 'publish step crashed');
              await boss.fail(PUBLISH_QUEUE, job.id, { message: String(error) });
            }
          }),
        );
      },
    );
  }
  await boss.createQueue(PUBLISH_SWEEP_QUEUE);
  await boss.schedule(PUBLISH_SWEEP_QUEUE, '* * * * *');
  await boss.work(PUBLISH_SWEEP_QUEUE, async () => {
    const requeued = await publisher.sweep(60_000);
    if (requeued > 0) logger.warn({ requeued }, 'lost publish wake-ups re-queued');
  });
  // A restarted process picks up what a dead one left (leases expire; their posts come back).
  const recovered = await publisher.sweep(0);
  if (recovered > 0) logger.info({ recovered }, 'posts resumed after restart');
  return publisher;
}
