import type PgBoss from 'pg-boss';
import type { Logger } from 'pino';
import { z } from 'zod';
import { defineQueue } from '../../jobs/queue.ts';
import type { DataExportService } from './export-service.ts';

/** Job payload, a versioned contract: add a v2 rather than changing v1 once deployed. */
const buildPayloadSchema = z.object({ v: z.literal(1), exportId: z.string().min(1) });

// A large archive of many videos takes minutes (it is I/O bound); a job active for an hour
// belonged to a dead worker, and its retry writes the archive again from the start.
export const dataExportBuildQueue = defineQueue({
  name: 'data-export.build',
  payload: buildPayloadSchema,
  expireInSeconds: 60 * 60,
  retryDelaySeconds: 60,
  retryBackoff: true,
  describe: (payload) => ({ exportId: payload.exportId }),
});

/**
 * Hourly: archives past their expiry are deleted from storage, and exports no job will finish any
 * more are failed. No payload (cron sends null).
 */
export const dataExportPurgeQueue = defineQueue({
  name: 'data-export.purge',
  payload: z.unknown(),
  expireInSeconds: 15 * 60,
  retryDelaySeconds: 60,
  cron: '23 * * * *',
});

export function enqueueDataExport(boss: PgBoss, exportId: string): Promise<void> {
  return dataExportBuildQueue.send(boss, { v: 1, exportId }, { singletonKey: exportId });
}

export async function startDataExportWorkers(
  boss: PgBoss,
  exports: Pick<DataExportService, 'build' | 'giveUp' | 'purgeExpired' | 'failOrphaned'>,
  options: { logger: Logger },
): Promise<void> {
  // One archive at a time per process: each is a long stream of disk or S3 I/O.
  await dataExportBuildQueue.work(boss, options.logger, {
    concurrency: 1,
    run: (payload) => exports.build(payload.exportId),
    giveUp: (payload, error) => exports.giveUp(payload.exportId, error),
  });
  await dataExportPurgeQueue.work(boss, options.logger, {
    concurrency: 1,
    run: async () => {
      const deleted = await exports.purgeExpired();
      if (deleted > 0) options.logger.info({ deleted }, 'expired data exports deleted');
      const orphaned = await exports.failOrphaned(dataExportBuildQueue.name);
      if (orphaned > 0) options.logger.warn({ orphaned }, 'data exports without a job failed');
    },
  });
}
