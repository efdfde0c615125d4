import type PgBoss from 'pg-boss';
import type { Logger } from 'pino';
import { z } from 'zod';
import type { MemeService } from './service.ts';

export const MEME_ANALYSE_QUEUE = 'memes.analyse';
export const MEME_COMPILE_QUEUE = 'memes.compile';

/** Job payloads, versioned contracts: add a v2 rather than changing v1 once deployed. */
const payloadSchema = z.object({ v: z.literal(1), analysisId: z.string().min(1) });
type MemePayload = z.infer<typeof payloadSchema>;

// A download + analysis of a 3-hour video, or a one-minute compilation, ends well within three
// hours even on slow machines. A job still active after that belonged to a dead worker and is
// retried (the lease makes that safe). Stage failures are recorded on the row, not thrown, so
// retries only ever cover crashes.
const queueOptions = (name: string): PgBoss.Queue => ({
  name,
  retryLimit: 2,
  retryDelay: 30,
  expireInSeconds: 3 * 60 * 60,
});

const queueReady = new WeakMap<PgBoss, Promise<void>>();

function ensureQueues(boss: PgBoss): Promise<void> {
  let ready = queueReady.get(boss);
  if (!ready) {
    // An API process with WORKER=off may enqueue before any worker created the queues.
    ready = (async () => {
      await boss.createQueue(MEME_ANALYSE_QUEUE, queueOptions(MEME_ANALYSE_QUEUE));
      await boss.createQueue(MEME_COMPILE_QUEUE, queueOptions(MEME_COMPILE_QUEUE));
    })();
    void ready.catch(() => queueReady.delete(boss));
    queueReady.set(boss, ready);
  }
  return ready;
}

async function enqueue(
  boss: PgBoss,
  queue: string,
  analysisId: string,
  options: { delaySeconds?: number },
): Promise<void> {
  await ensureQueues(boss);
  const payload: MemePayload = { v: 1, analysisId };
  await boss.send(queue, payload, {
    ...(options.delaySeconds && { startAfter: options.delaySeconds }),
  });
}

/** Queues the first stage of an analysis (download for links, then the analysis). */
export const enqueueMemeAnalysis = (
  boss: PgBoss,
  analysisId: string,
  options: { delaySeconds?: number } = {},
) => enqueue(boss, MEME_ANALYSE_QUEUE, analysisId, options);

/** Queues the compilation of an analysed video (first one, or a recompile). */
export const enqueueMemeCompilation = (
  boss: PgBoss,
  analysisId: string,
  options: { delaySeconds?: number } = {},
) => enqueue(boss, MEME_COMPILE_QUEUE, analysisId, options);

/**
 * Registers one worker per queue in this process (each stage runs ffmpeg on every core it gets,
 * so one at a time per queue), then re-queues what a stopped process left unfinished.
 */
export async function startMemeWorkers(
  boss: PgBoss,
  memes: MemeService,
  options: { logger: Logger },
): Promise<void> {
  await ensureQueues(boss);
  const handlers: [string, (analysisId: string) => Promise<unknown>][] = [
    [MEME_ANALYSE_QUEUE, memes.analyse],
    [MEME_COMPILE_QUEUE, memes.compile],
  ];
  for (const [queue, handle] of handlers) {
    await boss.work<unknown>(queue, { batchSize: 1, pollingIntervalSeconds: 0.5 }, async (jobs) => {
      for (const job of jobs) {
        const payload = payloadSchema.safeParse(job.data);
        if (!payload.success) {
          // Retrying cannot fix a malformed payload: log it and let the job complete.
          options.logger.error({ jobId: job.id, queue, data: job.data }, 'invalid meme payload');
          continue;
        }
        await handle(payload.data.analysisId);
      }
    });
  }
  const recovered = await memes.recoverInterrupted();
  if (recovered > 0) options.logger.info({ recovered }, 'interrupted meme analyses re-queued');
}
