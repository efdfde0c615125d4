import { bootstrap } from './bootstrap.ts';
import { loadConfigOrExit } from './config.ts';
import { installProcessGuards } from './jobs/process-guard.ts';
import { createLogger } from './lib/logger.ts';
import { requireMediaToolsOrExit } from './modules/health/media-tools.ts';

/** `npm run worker`: job handlers only, no HTTP. Several can run against one PostgreSQL. */
async function main(): Promise<void> {
  const config = loadConfigOrExit();
  if (!config.databaseUrl) {
    console.error(
      'npm run worker needs DATABASE_URL (PostgreSQL): the embedded PGlite database can only be opened by one process, and `npm start` already runs a worker inside it.',
    );
    process.exit(1);
  }
  const logger = createLogger(config, 'cadence-worker');
  // A job's uncaught error fails that job only; anything else uncaught exits (see the guard).
  installProcessGuards(logger);
  // Renders and analyses need ffmpeg/ffprobe: refuse to start rather than fail every one of them.
  await requireMediaToolsOrExit(config.media, logger);
  const context = await bootstrap(config, { runWorkers: true, logger });
  logger.info('worker ready');
  const stop = () => {
    context.shutdown().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

await main();
