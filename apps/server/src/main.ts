import { buildApp } from './app.ts';
import { bootstrap } from './bootstrap.ts';
import { loadConfigOrExit } from './config.ts';
import { createLogger } from './lib/logger.ts';

async function main(): Promise<void> {
  const config = loadConfigOrExit();
  const logger = createLogger(config, 'cadence');
  const context = await bootstrap(config, { runWorkers: config.worker.embedded, logger });
  const app = await buildApp(context, logger);
  app.addHook('onClose', () => context.shutdown());

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
