import { buildApp } from './app.ts';
import { bootstrap } from './bootstrap.ts';
import { loadConfigOrExit } from './config.ts';
import { exitIfDataDirLocked } from './db/data-dir-lock.ts';
import { installProcessGuards } from './jobs/process-guard.ts';
import { createLogger } from './lib/logger.ts';
import { startAdminSocket } from './modules/admin/admin-socket.ts';
import { requireMediaToolsOrExit } from './modules/health/media-tools.ts';

async function main(): Promise<void> {
  const config = loadConfigOrExit();
  const logger = createLogger(config, 'cadence');
  // A job's uncaught error fails that job only; anything else uncaught exits (see the guard).
  installProcessGuards(logger);
  // Without working ffmpeg/ffprobe every upload would be refused as unreadable: refuse to start.
  await requireMediaToolsOrExit(config.media, logger);
  const context = await bootstrap(config, { runWorkers: config.worker.embedded, logger }).catch(
    exitIfDataDirLocked(logger),
  );
  const app = await buildApp(context, logger);
  // This process owns the PGlite directory: `npm run admin` finds it through DATA_DIR/admin.sock.
  const adminSocket =
    context.database.kind === 'pglite'
      ? await startAdminSocket({
          dataDir: config.dataDir,
          users: context.users,
          adminToken: config.adminToken,
          logger,
        })
      : null;
  app.addHook('onClose', async () => {
    await adminSocket?.close();
    await context.shutdown();
  });

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    app.close().then(
      () => process.exit(0),
      (error: unknown) => {
        logger.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));

  await app.listen({ port: config.port, host: config.host });
  logger.info(
    {
      url: config.publicUrl,
      database: context.database.kind,
      worker: config.worker.embedded ? 'embedded' : 'off',
      tiktok: config.tiktok.sandbox ? 'sandbox' : 'live',
    },
    'Cadence is ready',
  );
}

await main();
