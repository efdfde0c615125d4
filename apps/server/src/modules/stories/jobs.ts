import type PgBoss from 'pg-boss';
import type { Logger } from 'pino';
import { z } from 'zod';
import type { StoryService } from './service.ts';

export const STORY_RENDER_QUEUE = 'stories.render';

/** Job payload, a versioned contract: add a v2 rather than changing v1 once deployed. */
const renderPayloadSchema = z.object({ v: z.literal(1), storyId: z.string().min(1) });
type RenderPayload = z.infer<typeof renderPayloadSchema>;

// A story lasts at most 600 s; even slow machines render that well within three hours. A job
// still active after that belonged to a dead worker and is retried (the claim makes it safe).
const queue: PgBoss.Queue = {
  name: STORY_RENDER_QUEUE,
  retryLimit: 2,
  retryDelay: 30,
  expireInSeconds: 3 * 60 * 60,
};

const queueReady = new WeakMap<PgBoss, Promise<void>>();

function ensureQueue(boss: PgBoss): Promise<void> {
  let ready = queueReady.get(boss);
  if (!ready) {
    // An API process with WORKER=off may enqueue before any worker created the queue.
    ready = boss.createQueue(STORY_RENDER_QUEUE, queue);
    void ready.catch(() => queueReady.delete(boss));
    queueReady.set(boss, ready);
  }
  return ready;
}

/** Queues one story's render. */
export async function enqueueStoryRender(
  boss: PgBoss,
  storyId: string,
  options: { delaySeconds?: number } = {},
): Promise<void> {
  await ensureQueue(boss);
  const payload: RenderPayload = { v: 1, storyId };
  await boss.send(STORY_RENDER_QUEUE, payload, {
    ...(options.delaySeconds && { startAfter: options.delaySeconds }),
  });
}

/**
 * Registers `concurrency` render workers in this process (pg-boss 10 has no teamSize: one
 * `work` call per slot, each fetching one job at a time), then re-queues interrupted renders.
 */
export async function startStoryWorkers(
  boss: PgBoss,
  stories: StoryService,
  options: { concurrency: number; logger: Logger },
): Promise<void> {
  await ensureQueue(boss);
  for (let slot = 0; slot < options.concurrency; slot++) {
    await boss.work<unknown>(
      STORY_RENDER_QUEUE,
      { batchSize: 1, pollingIntervalSeconds: 0.5 },
      async (jobs) => {
        for (const job of jobs) {
          const payload = renderPayloadSchema.safeParse(job.data);
          if (!payload.success) {
            // Retrying cannot fix a malformed payload: log it and let the job complete.
            options.logger.error({ jobId: job.id, data: job.data }, 'invalid story render payload');
            continue;
          }
          await stories.render(payload.data.storyId);
        }
      },
    );
  }
  const recovered = await stories.recoverInterrupted();
  if (recovered > 0) options.logger.info({ recovered }, 'interrupted story renders re-queued');
}
