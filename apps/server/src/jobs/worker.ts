import type { Logger } from 'pino';
import type { AppContext } from '../context.ts';
import { sql } from 'kysely';
import { startPublishingWorkers } from '../modules/publishing/jobs.ts';
import { startStoryWorkers } from '../modules/stories/jobs.ts';
import { startMemeWorkers } from '../modules/memes/jobs.ts';

export const PURGE_SESSIONS_QUEUE = 'maintenance.purge-expired-sessions';
export const REFRESH_TOKENS_QUEUE = 'tiktok.refresh-tokens';

/** Registers every queue's handler in this process. Later modules add theirs here. */
export async function startWorkers(
  context: AppContext,
  logger: Logger,
): Promise<{ running: boolean }> {
  const { boss, database } = context;
  await boss.createQueue(PURGE_SESSIONS_QUEUE);
  await boss.schedule(PURGE_SESSIONS_QUEUE, '17 * * * *');
  await boss.work(PURGE_SESSIONS_QUEUE, async () => {
    const result = await sql`delete from "session" where "expiresAt" < now()`.execute(database.db);
    await context.accountRepository.purgeExpiredStates(new Date());
    logger.info({ deleted: Number(result.numAffectedRows ?? 0) }, 'expired sessions purged');
  });

  // Tokens are refreshed ahead of expiry, so a publish at 3 a.m. never meets a dead token.
  await boss.createQueue(REFRESH_TOKENS_QUEUE);
  await boss.schedule(REFRESH_TOKENS_QUEUE, '*/5 * * * *');
  await boss.work(REFRESH_TOKENS_QUEUE, async () => {
    const result = await context.tokens.refreshDue();
    if (result.refreshed + result.failed > 0) logger.info(result, 'TikTok tokens refreshed');
  });

  // Meme analyses: download + analysis, then the compilation (also re-run by recompiles).
  await startMemeWorkers(boss, context.memes, { logger });
  await startStoryWorkers(boss, context.stories, {
    concurrency: context.config.stories.renderConcurrency,
    logger,
  });
  // Publishes due posts, resumes interrupted ones, sweeps lost wake-ups every minute.
  await startPublishingWorkers(context, logger);
  return { running: true };
}
