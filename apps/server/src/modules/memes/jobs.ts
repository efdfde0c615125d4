import type PgBoss from 'pg-boss';
import type { Logger } from 'pino';
import { z } from 'zod';
import { MEDIA_JOB_LEASE } from '../../db/lease.ts';
import { defineQueue } from '../../jobs/queue.ts';
import type { MemeStages } from './meme-stages.ts';

/** Job payloads, versioned contracts: add a v2 rather than changing v1 once deployed. */
const payloadSchema = z.object({ v: z.literal(1), analysisId: z.string().min(1) });

// A download + analysis of a 3-hour video, or a one-minute compilation, ends well within three
// hours even on slow machines. A job still active after that belonged to a dead worker and is
// retried (the lease makes that safe). Stage failures are recorded on the row, not thrown, so
// retries only ever cover crashes; they wait out the stage's lease (MEDIA_JOB_LEASE) so the retry
// can take the row.
const memeQueue = (name: string) =>
  defineQueue({
    name,
    payload: payloadSchema,
    expireInSeconds: 3 * 60 * 60,
    retryDelaySeconds: MEDIA_JOB_LEASE.ms / 1000 + 5,
    describe: (payload) => ({ analysisId: payload.analysisId }),
  });

export const memeAnalyseQueue = memeQueue('memes.analyse');
export const memeCompileQueue = memeQueue('memes.compile');
export const MEME_ANALYSE_QUEUE = memeAnalyseQueue.name;
export const MEME_COMPILE_QUEUE = memeCompileQueue.name;

const startAfter = (options: { delaySeconds?: number }) =>
  options.delaySeconds ? { startAfter: options.delaySeconds } : {};

/** Queues the first stage of an analysis (download for links, then the analysis). */
export const enqueueMemeAnalysis = (
  boss: PgBoss,
  analysisId: string,
  options: { delaySeconds?: number } = {},
) => memeAnalyseQueue.send(boss, { v: 1, analysisId }, startAfter(options));

/** Queues the compilation of an analysed video (first one, or a recompile). */
export const enqueueMemeCompilation = (
  boss: PgBoss,
  analysisId: string,
  options: { delaySeconds?: number } = {},
) => memeCompileQueue.send(boss, { v: 1, analysisId }, startAfter(options));

/**
 * Registers one worker per queue in this process (each stage runs ffmpeg on every core it gets,
 * so one at a time per queue), then re-queues what a stopped process left unfinished.
 */
export async function startMemeWorkers(
  boss: PgBoss,
  memes: MemeStages,
  options: { logger: Logger },
): Promise<void> {
  await memeAnalyseQueue.work(boss, options.logger, {
    concurrency: 1,
    run: (payload, job) => memes.analyse(payload.analysisId, job.signal),
    giveUp: (payload) => memes.giveUp('analyse', payload.analysisId),
  });
  await memeCompileQueue.work(boss, options.logger, {
    concurrency: 1,
    run: (payload, job) => memes.compile(payload.analysisId, job.signal),
    giveUp: (payload) => memes.giveUp('compile', payload.analysisId),
  });
  const recovered = await memes.recoverInterrupted();
  if (recovered > 0) options.logger.info({ recovered }, 'interrupted meme analyses re-queued');
}
