import type PgBoss from 'pg-boss';
import type { Logger } from 'pino';
import { z } from 'zod';
import { defineQueue } from '../../jobs/queue.ts';
import type { NotificationService } from './service.ts';

/** Daily: notifications older than 90 days are deleted. No payload (pg-boss's cron sends null). */
export const notificationPurgeQueue = defineQueue({
  name: 'notifications.purge',
  payload: z.unknown(),
  expireInSeconds: 15 * 60,
  retryDelaySeconds: 60,
  cron: '47 3 * * *',
});

/**
 * Hourly: the digest of everyone whose local time is 07:00 (service.sendDigests picks them by
 * their time zone; a person's day is claimed once, so ticks and retries never send two).
 */
export const notificationDigestQueue = defineQueue({
  name: 'notifications.digest',
  payload: z.unknown(),
  expireInSeconds: 15 * 60,
  retryDelaySeconds: 5 * 60,
  cron: '1 * * * *',
});

export async function startNotificationWorkers(
  boss: PgBoss,
  notifications: Pick<NotificationService, 'purgeOld' | 'sendDigests'>,
  options: { logger: Logger },
): Promise<void> {
  await notificationPurgeQueue.work(boss, options.logger, {
    concurrency: 1,
    run: async () => {
      const deleted = await notifications.purgeOld();
      if (deleted > 0) options.logger.info({ deleted }, 'old notifications deleted');
    },
  });
  await notificationDigestQueue.work(boss, options.logger, {
    concurrency: 1,
    run: async () => {
      const sent = await notifications.sendDigests();
      if (sent > 0) options.logger.info({ sent }, 'notification digests queued');
    },
  });
}
