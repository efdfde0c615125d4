import type PgBoss from 'pg-boss';
import type { Logger } from 'pino';
import type { Config } from '../config.ts';
import { openDatabase, type DatabaseHandle } from '../db/client.ts';
import { migrate } from '../db/migrate.ts';
import { createBoss } from '../jobs/boss.ts';
import { sweepOrphanedWorkDirs } from '../lib/work-dir.ts';

/**
 * Opens the database (or takes the one given), applies migrations, frees the scratch space of dead
 * processes, and starts pg-boss on the database.
 */
export async function startDatabase(
  config: Config,
  logger: Logger,
  given: DatabaseHandle | undefined,
): Promise<{ database: DatabaseHandle; boss: PgBoss }> {
  const database =
    given ??
    (await openDatabase({
      databaseUrl: config.databaseUrl,
      pgliteDataDir: `${config.dataDir}/pgdata`,
      onIdleConnectionError: (error) =>
        logger.warn({ err: error }, 'idle database connection lost; it will be replaced'),
    }));
  const applied = await migrate(database.db);
  if (applied.length > 0) logger.info({ applied }, 'database migrated');

  // Scratch space of processes that died mid-job (SIGKILL, OOM) has no owner left to free it.
  const swept = await sweepOrphanedWorkDirs();
  if (swept.length > 0) logger.info({ swept }, 'scratch space of dead processes removed');

  const boss = createBoss(database);
  boss.on('error', (error) => logger.error({ err: error }, 'job queue error'));
  await boss.start();
  return { database, boss };
}
