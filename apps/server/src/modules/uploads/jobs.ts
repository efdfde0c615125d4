import type PgBoss from 'pg-boss';
import type { Logger } from 'pino';
import { z } from 'zod';
import { defineQueue } from '../../jobs/queue.ts';
import type { MediaService } from '../media/service.ts';

/**
 * Every 10 minutes, deletes unfinished uploads that expired (UPLOAD_EXPIRY_HOURS after their last
 * PATCH): their bytes, and the quota space they held. A new upload of the same user also deletes
 * that user's expired ones first, so this job is what frees disk space, not what frees quota.
 * Periodic: no payload (pg-boss's cron sends null); a failed tick is retried, the next comes anyway.
 */
export const deleteExpiredUploadsQueue = defineQueue({
  name: 'uploads.delete-expired',
  payload: z.unknown(),
  expireInSeconds: 10 * 60,
  retryDelaySeconds: 60,
  cron: '*/10 * * * *',
});

export async function startUploadWorkers(
  boss: PgBoss,
  media: MediaService,
  options: { logger: Logger },
): Promise<void> {
  await deleteExpiredUploadsQueue.work(boss, options.logger, {
    concurrency: 1,
    run: async () => {
      const deleted = await media.deleteExpiredUploads();
      if (deleted > 0) options.logger.info({ deleted }, 'expired uploads deleted');
    },
  });
}
