import { SandboxState } from '@cadence/tiktok-sandbox';
import type { Logger } from 'pino';
import { createAuth } from './auth/auth.ts';
import type { Config } from './config.ts';
import type { AppContext } from './context.ts';
import { openDatabase, type DatabaseHandle } from './db/client.ts';
import { migrate } from './db/migrate.ts';
import { MEDIA_JOB_LEASE } from './db/lease.ts';
import { createBoss } from './jobs/boss.ts';
import { startWorkers } from './jobs/worker.ts';
import { TokenCipher } from './lib/token-cipher.ts';
import { sweepOrphanedWorkDirs } from './lib/work-dir.ts';
import { createAccountRepository } from './modules/accounts/repository.ts';
import { createAnalyticsRepository } from './modules/analytics/repository.ts';
import { createAnalyticsService } from './modules/analytics/service.ts';
import { createAnalyticsSync } from './modules/analytics/sync.ts';
import { enqueueAnalyticsSync } from './modules/analytics/jobs.ts';
import { createAccountService } from './modules/accounts/service.ts';
import { createTokenService } from './modules/accounts/token-service.ts';
import { createMailTransport } from './mail/mail-transport.ts';
import { enqueueMail } from './modules/mail/jobs.ts';
import { createMailRepository } from './modules/mail/repository.ts';
import { createMailService } from './modules/mail/service.ts';
import { createDataRightsRepository } from './modules/data-rights/repository.ts';
import { createDataRightsService } from './modules/data-rights/service.ts';
import { enqueueDataExport } from './modules/data-rights/export-jobs.ts';
import { createDataExportRepository } from './modules/data-rights/export-repository.ts';
import { createDataExportService } from './modules/data-rights/export-service.ts';
import type { Notify } from './modules/notifications/service.ts';
import { createNotificationRepository } from './modules/notifications/repository.ts';
import { createNotificationService } from './modules/notifications/service.ts';
import { createUnsubscribeTokens } from './modules/notifications/unsubscribe-token.ts';
import { createMediaRepository } from './modules/media/repository.ts';
import { createMediaService } from './modules/media/service.ts';
import { createScheduleRepository } from './modules/schedules/repository.ts';
import { accountPostStats, createScheduleService } from './modules/schedules/service.ts';
import { createPostListingService } from './modules/schedules/listing-service.ts';
import { createPostListing } from './modules/schedules/post-listing.ts';
import { createDraftRepository } from './modules/drafts/repository.ts';
import { createPostingSlotRepository } from './modules/slots/repository.ts';
import { createDraftService } from './modules/drafts/service.ts';
import { enqueueStoryRender } from './modules/stories/jobs.ts';
import { createStoryRepository } from './modules/stories/repository.ts';
import { createStoryRenderer } from './modules/stories/renderer.ts';
import { createStoryService } from './modules/stories/service.ts';
import { enqueueMemeAnalysis, enqueueMemeCompilation } from './modules/memes/jobs.ts';
import { createMemeRepository } from './modules/memes/repository.ts';
import { createMemeStages } from './modules/memes/meme-stages.ts';
import { createMemeService } from './modules/memes/service.ts';
import { enqueueFallback } from './modules/publishing/jobs.ts';
import { createWakeAnnouncer } from './modules/publishing/wake-timers.ts';
import { createPasswordResetMailer } from './modules/users/password-reset-mail.ts';
import { createEmailChangeService } from './modules/users/email-change.ts';
import {
  createEmailVerification,
  createEmailVerificationMailer,
} from './modules/users/email-verification.ts';
import { createUserRepository } from './modules/users/repository.ts';
import { LocalDiskStorage } from './storage/local-disk-storage.ts';
import type { MediaStorage } from './storage/media-storage.ts';
import { createTikTokClient } from './tiktok/tiktok-client.ts';

export interface BootstrapOptions {
  /** Start job handlers in this process (embedded mode, or `npm run worker`). */
  runWorkers: boolean;
  logger: Logger;
  /** Tests pass an already opened database (e.g. in-memory PGlite). */
  database?: DatabaseHandle;
}

/** Opens the database, applies migrations, starts pg-boss; the caller owns `shutdown`. */
export async function bootstrap(
  config: Config,
  options: BootstrapOptions,
): Promise<AppContext & { shutdown(): Promise<void> }> {
  const database =
    options.database ??
    (await openDatabase({
      databaseUrl: config.databaseUrl,
      pgliteDataDir: `${config.dataDir}/pgdata`,
      onIdleConnectionError: (error) =>
        options.logger.warn({ err: error }, 'idle database connection lost; it will be replaced'),
    }));
  const applied = await migrate(database.db);
  if (applied.length > 0) options.logger.info({ applied }, 'database migrated');

  // Scratch space of processes that died mid-job (SIGKILL, OOM) has no owner left to free it.
  const swept = await sweepOrphanedWorkDirs();
  if (swept.length > 0) options.logger.info({ swept }, 'scratch space of dead processes removed');

  const boss = createBoss(database);
  boss.on('error', (error) => options.logger.error({ err: error }, 'job queue error'));
  await boss.start();

  const redirectUri = `${config.publicUrl}/auth/callback`;
  const cipher = new TokenCipher(config.tokenEncryptionKey);
  const tiktok = createTikTokClient({
    clientKey: config.tiktok.clientKey,
    clientSecret: config.tiktok.clientSecret,
    authBase: config.tiktok.authBase,
    apiBase: config.tiktok.apiBase,
  });
  const sandbox = config.tiktok.sandbox
    ? new SandboxState({
        clients: [
          {
            clientKey: config.tiktok.clientKey,
            clientSecret: config.tiktok.clientSecret,
            redirectUris: [redirectUri],
            appName: 'Cadence',
            // TIKTOK_APP_AUDITED=false: the sandbox holds Cadence to an unaudited app's limits.
            unaudited: !config.tiktok.audited,
            // The prefix Cadence pulls from counts as verified with the sandbox, as the operator
            // verifies it with TikTok.
            verifiedUrlPrefixes:
              config.tiktok.pullFromUrlPrefix === null ? [] : [config.tiktok.pullFromUrlPrefix],
          },
        ],
        // Sandbox accounts stay connected across restarts: Cadence keeps their tokens in its database.
        persistFile: `${config.dataDir}/tiktok-sandbox.json`,
        ...(config.tiktok.sandboxPostIdDelayMs !== null && {
          postIdDelayMs: config.tiktok.sandboxPostIdDelayMs,
        }),
        ...(config.tiktok.sandboxRateLimitWindowMs !== null && {
          rateLimitWindowMs: config.tiktok.sandboxRateLimitWindowMs,
        }),
      })
    : null;
  const mailTransport = createMailTransport({
    smtpUrl: config.mail.smtpUrl,
    from: config.mail.from,
    outboxDir: config.mail.outboxDir,
    messageIdDomain: new URL(config.publicUrl).hostname,
    logger: options.logger,
  });
  const mail = createMailService({
    repository: createMailRepository(database.db),
    cipher,
    transport: mailTransport,
    enqueue: (messageId) => enqueueMail(boss, messageId),
    logger: options.logger,
  });

  // Every event a person hears about goes through this one service (bell, email, digest).
  const notifications = createNotificationService({
    repository: createNotificationRepository(database.db),
    users: createUserRepository(database.db),
    mail,
    tokens: createUnsubscribeTokens(config.sessionSecret),
    publicUrl: config.publicUrl,
    logger: options.logger,
  });
  const notify: Notify = (event) => notifications.notify(event);
  const accountRepository = createAccountRepository(database.db);
  const scheduleRepository = createScheduleRepository(database.db);
  const tokens = createTokenService({
    accounts: accountRepository,
    cipher,
    tiktok,
    logger: options.logger,
    notify,
  });
  const accounts = createAccountService({
    accounts: accountRepository,
    tokens,
    tiktok,
    cipher,
    postStats: accountPostStats(scheduleRepository),
    redirectUri,
    logger: options.logger,
    // A new connection gets its analytics at once rather than at the next 5-minute sweep.
    onConnected: (accountId) => enqueueAnalyticsSync(boss, accountId),
  });

  const storage: MediaStorage =
    config.storage.driver === 's3'
      ? // The AWS SDK is large: load it only for deployments that use object storage.
        new (await import('./storage/s3-storage.ts')).S3Storage(config.storage)
      : new LocalDiskStorage(config.storage.rootDir);
  const media = createMediaService({
    repository: createMediaRepository(database.db),
    storage,
    ffmpegPath: config.media.ffmpegPath,
    ffprobePath: config.media.ffprobePath,
    userQuotaBytes: config.uploads.userQuotaBytes,
    uploadTtlMs: config.uploads.expiryMs,
    logger: options.logger,
  });

  const storyRepository = createStoryRepository(database.db);
  // Renewed as often as MEDIA_JOB_LEASE says; held for MEDIA_JOB_LEASE_MS (default its 60 s).
  const mediaJobLease = {
    ms: config.worker.mediaJobLeaseMs,
    heartbeatMs: MEDIA_JOB_LEASE.heartbeatMs,
  };
  const storyRenderer = createStoryRenderer({
    repository: storyRepository,
    media,
    enqueue: (storyId, enqueueOptions) => enqueueStoryRender(boss, storyId, enqueueOptions),
    ffmpegPath: config.media.ffmpegPath,
    lease: mediaJobLease,
    logger: options.logger,
    notify,
  });
  const stories = createStoryService({
    repository: storyRepository,
    media,
    users: createUserRepository(database.db),
    enqueue: (storyId) => enqueueStoryRender(boss, storyId),
    stopRunning: (storyId, why) => storyRenderer.stop(storyId, why),
    logger: options.logger,
  });

  const memeRepository = createMemeRepository(database.db);
  const memeStages = createMemeStages({
    repository: memeRepository,
    media,
    storage,
    enqueueAnalysis: (id, enqueueOptions) => enqueueMemeAnalysis(boss, id, enqueueOptions),
    enqueueCompilation: (id, enqueueOptions) => enqueueMemeCompilation(boss, id, enqueueOptions),
    ffmpegPath: config.media.ffmpegPath,
    ffprobePath: config.media.ffprobePath,
    ytDlpPath: config.media.ytDlpPath,
    youtubeTestOrigin: config.memes.youtubeTestOrigin,
    compilePreset: config.memes.compilePreset,
    lease: mediaJobLease,
    logger: options.logger,
    notify,
  });
  const memes = createMemeService({
    repository: memeRepository,
    media,
    storage,
    users: createUserRepository(database.db),
    enqueueAnalysis: (id) => enqueueMemeAnalysis(boss, id),
    enqueueCompilation: (id) => enqueueMemeCompilation(boss, id),
    stopRunning: (id, why) => memeStages.stop(id, why),
    logger: options.logger,
  });

  const postListingRepository = createPostListing(database.db);
  const announceWake = createWakeAnnouncer(database, options.logger);
  const schedules = createScheduleService({
    tiktokWebBase: config.tiktok.authBase,
    repository: scheduleRepository,
    dayCounts: (...args) => scheduleRepository.accountDayCounts(...args),
    dailyPostCap: config.planning.dailyPostCap,
    appAudited: config.tiktok.audited,
    slots: createPostingSlotRepository(database.db),
    accounts: accountRepository,
    tokens,
    tiktok,
    media,
    users: createUserRepository(database.db),
    // The queue's job is the durable wake-up; the announcement arms the workers' timers.
    wake: async (postId, at) => {
      await Promise.all([enqueueFallback(boss, postId, at), announceWake(postId, at)]);
    },
    logger: options.logger,
  });

  const postListing = createPostListingService({
    tiktokWebBase: config.tiktok.authBase,
    listing: postListingRepository,
    users: createUserRepository(database.db),
    dailyPostCap: config.planning.dailyPostCap,
  });

  const drafts = createDraftService({
    repository: createDraftRepository(database.db),
    accounts: accountRepository,
    media,
    schedules,
  });

  const analyticsRepository = createAnalyticsRepository(database.db);
  const analyticsSync = createAnalyticsSync({
    repository: analyticsRepository,
    accounts: accountRepository,
    tokens,
    tiktok,
    logger: options.logger,
  });

  const auth = createAuth({
    db: database.db,
    secret: config.sessionSecret,
    publicUrl: config.publicUrl,
    logger: options.logger,
    sendPasswordReset: createPasswordResetMailer({ mail, publicUrl: config.publicUrl }),
    requireEmailVerification: config.requireEmailVerification,
    sendEmailVerification: createEmailVerificationMailer({ mail, publicUrl: config.publicUrl }),
  });

  const context: AppContext = {
    config,
    mail,
    notifications,
    dataRights: createDataRightsService({
      repository: createDataRightsRepository(database.db),
      accounts,
      storage,
      users: createUserRepository(database.db),
      mail,
      contactEmail: config.publicInfo.contactEmail,
      logger: options.logger,
    }),
    dataExports: createDataExportService({
      repository: createDataExportRepository(database.db),
      storage,
      users: createUserRepository(database.db),
      mail,
      enqueue: (exportId) => enqueueDataExport(boss, exportId),
      publicUrl: config.publicUrl,
      logger: options.logger,
    }),
    database,
    storage,
    media,
    schedules,
    postListing,
    drafts,
    stories,
    storyRenderer,
    memes,
    memeStages,
    cipher,
    tiktok,
    sandbox,
    accountRepository,
    tokens,
    accounts,
    analyticsSync,
    analytics: createAnalyticsService({ repository: analyticsRepository }),
    auth,
    emailChange: createEmailChangeService({
      users: createUserRepository(database.db),
      mail,
      publicUrl: config.publicUrl,
      contactEmail: config.publicInfo.contactEmail,
      logger: options.logger,
    }),
    emailVerification: createEmailVerification({
      auth,
      users: createUserRepository(database.db),
      mail,
      required: config.requireEmailVerification,
    }),
    boss,
    users: createUserRepository(database.db),
  };
  if (options.runWorkers) await startWorkers(context, options.logger);

  let closed = false;
  return {
    ...context,
    async shutdown() {
      if (closed) return;
      closed = true;
      // Graceful: stop taking jobs, let running ones finish (up to 30 s), then close the database.
      await boss.stop({ graceful: true, wait: true, timeout: 30_000 });
      mailTransport.close();
      await database.close();
    },
  };
}
