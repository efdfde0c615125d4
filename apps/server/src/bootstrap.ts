import type { Logger } from 'pino';
import type { Config } from './config.ts';
import type { AppContext } from './context.ts';
import type { DatabaseHandle } from './db/client.ts';
import { startWorkers } from './jobs/worker.ts';
import { TokenCipher } from './lib/token-cipher.ts';
import { createMailTransport } from './mail/mail-transport.ts';
import type { Notify } from './modules/notifications/service.ts';
import { createScheduleRepository } from './modules/schedules/repository.ts';
import { createAccountServices } from './bootstrap/account-services.ts';
import { startDatabase } from './bootstrap/database.ts';
import { createMedia, createMediaPipelines } from './bootstrap/media-services.ts';
import { createMessaging } from './bootstrap/messaging.ts';
import { createPublishingServices } from './bootstrap/publishing-services.ts';
import { openStorage } from './bootstrap/storage.ts';
import { createTikTok } from './bootstrap/tiktok.ts';
import { createUserServices } from './bootstrap/user-services.ts';
import type { Wiring } from './bootstrap/wiring.ts';

export interface BootstrapOptions {
  /** Start job handlers in this process (embedded mode, or `npm run worker`). */
  runWorkers: boolean;
  logger: Logger;
  /** Tests pass an already opened database (e.g. in-memory PGlite). */
  database?: DatabaseHandle;
}

/**
 * The composition root: opens the database, applies migrations, starts pg-boss, then builds every
 * repository and service once (each step in bootstrap/) and, when asked, starts the workers. The
 * caller owns `shutdown`.
 */
export async function bootstrap(
  config: Config,
  options: BootstrapOptions,
): Promise<AppContext & { shutdown(): Promise<void> }> {
  const { logger } = options;
  const { database, boss } = await startDatabase(config, logger, options.database);
  const wiring: Wiring = { config, logger, database, boss };

  const cipher = new TokenCipher(config.tokenEncryptionKey);
  const { tiktok, sandbox } = createTikTok(config);
  const storage = await openStorage(config);
  const mailTransport = createMailTransport({
    smtpUrl: config.mail.smtpUrl,
    from: config.mail.from,
    outboxDir: config.mail.outboxDir,
    messageIdDomain: new URL(config.publicUrl).hostname,
    logger,
  });
  const messaging = createMessaging(wiring, cipher, mailTransport);
  const notify: Notify = (event) => messaging.notifications.notify(event);
  const scheduleRepository = createScheduleRepository(database.db);
  const accountServices = createAccountServices(wiring, {
    cipher,
    tiktok,
    notify,
    scheduleRepository,
  });
  const media = createMedia(wiring, storage);

  const context: AppContext = {
    config,
    database,
    boss,
    cipher,
    tiktok,
    sandbox,
    storage,
    media,
    ...messaging,
    ...accountServices,
    ...createMediaPipelines(wiring, { media, storage, notify }),
    ...createPublishingServices(wiring, {
      accountRepository: accountServices.accountRepository,
      tokens: accountServices.tokens,
      tiktok,
      media,
      scheduleRepository,
    }),
    ...createUserServices(wiring, {
      mail: messaging.mail,
      accounts: accountServices.accounts,
      storage,
    }),
  };
  if (options.runWorkers) await startWorkers(context, logger);

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
