import type PgBoss from 'pg-boss';
import type { Logger } from 'pino';
import { z } from 'zod';
import { MEDIA_JOB_LEASE } from '../../db/lease.ts';
import { defineQueue } from '../../jobs/queue.ts';
import type { StoryRenderer } from './renderer.ts';

/** Job payload, a versioned contract: add a v2 rather than changing v1 once deployed. */
const renderPayloadSchema = z.object({ v: z.literal(1), storyId: z.string().min(1) });

// A story lasts at most 600 s; even slow machines render that well within three hours. A job
// still active after that belonged to a dead worker and is retried (the claim makes it safe).
// Retries wait out the render's lease (MEDIA_JOB_LEASE), so the retry can take a row its failed
// attempt left claimed.
export const storyRenderQueue = defineQueue({
  name: 'stories.render',
  payload: renderPayloadSchema,
  expireInSeconds: 3 * 60 * 60,
  retryDelaySeconds: MEDIA_JOB_LEASE.ms / 1000 + 5,
  describe: (payload) => ({ storyId: payload.storyId }),
});
export const STORY_RENDER_QUEUE = storyRenderQueue.name;

/** Queues one story's render. */
export function enqueueStoryRender(
  boss: PgBoss,
  storyId: string,
  options: { delaySeconds?: number } = {},
): Promise<void> {
  return storyRenderQueue.send(
    boss,
    { v: 1, storyId },
    options.delaySeconds ? { startAfter: options.delaySeconds } : {},
  );
}

/** Registers `concurrency` render slots in this process, then re-queues interrupted renders. */
export async function startStoryWorkers(
  boss: PgBoss,
  stories: StoryRenderer,
  options: { concurrency: number; logger: Logger },
): Promise<void> {
  await storyRenderQueue.work(boss, options.logger, {
    // One job per fetch loop: a long render never holds up another slot's next render.
    concurrency: { loops: options.concurrency, batchSize: 1 },
    run: (payload, job) => stories.render(payload.storyId, job.signal),
    giveUp: (payload) => stories.giveUp(payload.storyId),
  });
  const recovered = await stories.recoverInterrupted();
  if (recovered > 0) options.logger.info({ recovered }, 'interrupted story renders re-queued');
}
