import { sql } from 'kysely';
import type PgBoss from 'pg-boss';
import type { Logger } from 'pino';
import { z } from 'zod';
import type { DatabaseHandle } from '../db/client.ts';
import { startAccountWorkers } from '../modules/accounts/jobs.ts';
import type { AccountService } from '../modules/accounts/service.ts';
import type { AccountRepository } from '../modules/accounts/repository.ts';
import { startAnalyticsWorkers } from '../modules/analytics/jobs.ts';
import type { AnalyticsSync } from '../modules/analytics/sync.ts';
import { startWorkerHeartbeat } from '../modules/health/worker-state.ts';
import { startDataExportWorkers } from '../modules/data-rights/export-jobs.ts';
import type { DataExportService } from '../modules/data-rights/export-service.ts';
import { startMailWorkers } from '../modules/mail/jobs.ts';
import type { MailService } from '../modules/mail/service.ts';
import { startNotificationWorkers } from '../modules/notifications/jobs.ts';
import type { NotificationService } from '../modules/notifications/service.ts';
import type { MediaService } from '../modules/media/service.ts';
import type { MemeStages } from '../modules/memes/meme-stages.ts';
import { startPublishingWorkers, type PublishingWorkerDeps } from '../modules/publishing/jobs.ts';
import { createPullUrls } from '../modules/publishing/pull-urls.ts';
import { sandboxFirstPostIdCheckMs } from '../modules/publishing/publish-state.ts';
import type { Config } from '../config.ts';
import { startStoryWorkers } from '../modules/stories/jobs.ts';
import type { StoryRenderer } from '../modules/stories/renderer.ts';
import { startMemeWorkers } from '../modules/memes/jobs.ts';
import { startUploadWorkers } from '../modules/uploads/jobs.ts';
import type { TikTokClient } from '../tiktok/tiktok-client.ts';
import { createTikTokDriver } from '../tiktok/tiktok-driver.ts';
import { defineQueue } from './queue.ts';

export const PURGE_SESSIONS_QUEUE = 'maintenance.purge-expired-sessions';

// Periodic jobs carry no payload (pg-boss's cron sends null); a failed tick is retried, and the
// next tick comes anyway.
const purgeSessionsQueue = defineQueue({
  name: PURGE_SESSIONS_QUEUE,
  payload: z.unknown(),
  expireInSeconds: 15 * 60,
  retryDelaySeconds: 60,
  cron: '17 * * * *',
});

/** What the worker process runs jobs with (the same names as in AppContext, nothing more). */
export interface WorkerDeps extends Omit<
  PublishingWorkerDeps,
  'db' | 'urgentDb' | 'concurrency' | 'pullUrls' | 'sweep' | 'driver'
> {
  /** The TikTok client the publishing driver is built on (tiktok/tiktok-driver.ts). */
  tiktok: TikTokClient;
  boss: PgBoss;
  database: Pick<DatabaseHandle, 'db' | 'urgentDb'> & { connectionString?: string | null };
  config: Pick<Config, 'publicUrl' | 'sessionSecret' | 'tiktok'> & {
    worker: Pick<Config['worker'], 'concurrency' | 'publishSweep'>;
    stories: { renderConcurrency: number };
    planning: { dailyPostCap: number };
  };
  accountRepository: Pick<AccountRepository, 'purgeExpiredStates'>;
  accounts: Pick<AccountService, 'purgeExpiredPendingConnections'>;
  mail: MailService;
  notifications: NotificationService;
  dataExports: DataExportService;
  media: MediaService;
  memeStages: MemeStages;
  storyRenderer: StoryRenderer;
  analyticsSync: AnalyticsSync;
}

/** Registers every queue's handler in this process. Later modules add theirs here. */
export async function startWorkers(deps: WorkerDeps, logger: Logger): Promise<void> {
  const { boss, database } = deps;
  await purgeSessionsQueue.work(boss, logger, {
    concurrency: 1,
    run: async () => {
      const result = await sql`delete from "session" where "expiresAt" < now()`.execute(
        database.db,
      );
      await deps.accountRepository.purgeExpiredStates(new Date());
      // Unanswered 'you authorised another account' choices end like a cancel (tokens revoked).
      await deps.accounts.purgeExpiredPendingConnections();
      logger.info({ deleted: Number(result.numAffectedRows ?? 0) }, 'expired sessions purged');
    },
  });
  await startAccountWorkers(boss, deps.tokens, { logger });
  // Meme analyses: download + analysis, then the compilation (also re-run by recompiles).
  await startMemeWorkers(boss, deps.memeStages, { logger });
  await startStoryWorkers(boss, deps.storyRenderer, {
    concurrency: deps.config.stories.renderConcurrency,
    logger,
  });
  // Publishes due posts, resumes interrupted ones, sweeps lost wake-ups every minute
  // (PUBLISH_SWEEP_INTERVAL_MS).
  await startPublishingWorkers(
    {
      boss,
      db: database.db,
      urgentDb: database.urgentDb,
      driver: createTikTokDriver(deps.tiktok, {
        ...(deps.config.tiktok.sandboxRateLimitWindowMs !== null && {
          initWindowMs: deps.config.tiktok.sandboxRateLimitWindowMs,
        }),
      }),
      tokens: deps.tokens,
      storage: deps.storage,
      concurrency: deps.config.worker.concurrency,
      dailyPostCap: deps.config.planning.dailyPostCap,
      notify: (event) => deps.notifications.notify(event),
      pullUrls: createPullUrls(deps.config),
      connectionString: database.connectionString ?? null,
      sweep: deps.config.worker.publishSweep,
    },
    logger,
    deps.config.tiktok.sandboxPostIdDelayMs === null
      ? {}
      : { firstPostIdCheckMs: sandboxFirstPostIdCheckMs(deps.config.tiktok.sandboxPostIdDelayMs) },
  );
  // Sends outgoing mail (an outbox row per message), purges old outbox rows daily.
  await startMailWorkers(boss, deps.mail, { logger });
  // Deletes notifications after 90 days; sends the daily digests.
  await startNotificationWorkers(boss, deps.notifications, { logger });
  // Builds 'download my data' archives; deletes them once expired.
  await startDataExportWorkers(boss, deps.dataExports, { logger });
  // Deletes unfinished uploads that expired, and the quota they held.
  await startUploadWorkers(boss, deps.media, { logger });
  // Syncs connected accounts' videos and stats for analytics (young videos hourly, others daily).
  await startAnalyticsWorkers(boss, deps.analyticsSync, { logger });
  // Last: a heartbeat says this process takes jobs (GET /api/health reads it from the database).
  await startWorkerHeartbeat(boss, logger);
}
