import type PgBoss from 'pg-boss';
import type { Logger } from 'pino';
import { z } from 'zod';
import { defineQueue } from '../../jobs/queue.ts';
import type { MailService } from './service.ts';

/** Job payload, a versioned contract: add a v2 rather than changing v1 once deployed. */
const sendPayloadSchema = z.object({ v: z.literal(1), messageId: z.string().min(1) });

// Retries with backoff (about 1, then 2 minutes) ride out an SMTP server that is briefly down or
// answers 4xx. A job active for 5 minutes belonged to a dead worker: by then the message's lease
// (DELIVERY_LEASE_SECONDS, 3 min) has run out and the retry can take it over.
export const mailSendQueue = defineQueue({
  name: 'mail.send',
  payload: sendPayloadSchema,
  expireInSeconds: 5 * 60,
  retryDelaySeconds: 60,
  retryBackoff: true,
  describe: (payload) => ({ mailId: payload.messageId }),
});

/**
 * Hourly: outbox rows older than 30 days are deleted, and messages no job will deliver any more
 * are given up. No payload (pg-boss's cron sends null).
 */
export const mailPurgeQueue = defineQueue({
  name: 'mail.purge',
  payload: z.unknown(),
  expireInSeconds: 15 * 60,
  retryDelaySeconds: 60,
  cron: '41 * * * *',
});

/** Queues the delivery of one outbox row; a second call for the same row is a no-op. */
export function enqueueMail(boss: PgBoss, messageId: string): Promise<void> {
  return mailSendQueue.send(boss, { v: 1, messageId }, { singletonKey: messageId });
}

export async function startMailWorkers(
  boss: PgBoss,
  mail: MailService,
  options: { logger: Logger },
): Promise<void> {
  await mailSendQueue.work(boss, options.logger, {
    concurrency: 4,
    run: (payload) => mail.deliver(payload.messageId),
    giveUp: (payload, error) => mail.giveUp(payload.messageId, error),
  });
  await mailPurgeQueue.work(boss, options.logger, {
    concurrency: 1,
    run: async () => {
      const deleted = await mail.purgeOld();
      if (deleted > 0) options.logger.info({ deleted }, 'old outbox rows deleted');
      const orphaned = await mail.failOrphaned(mailSendQueue.name);
      if (orphaned > 0) options.logger.warn({ orphaned }, 'mail without a job given up');
    },
  });
}
