import type PgBoss from 'pg-boss';
import type { Logger } from 'pino';
import { z } from 'zod';
import { defineQueue } from '../../jobs/queue.ts';
import type { AnalyticsSync } from './sync.ts';

/** Job payload, a versioned contract: add a v2 rather than changing v1 once deployed. */
const syncPayloadSchema = z.object({ v: z.literal(1), accountId: z.uuid() });

// One account's sync: a few calls for an account already synced, ⌈videos / 20⌉ + 1 the first
// time. Its progress is in analytics_accounts, so a retry (or the next tick) resumes it.
export const analyticsSyncQueue = defineQueue({
  name: 'analytics.sync-account',
  payload: syncPayloadSchema,
  expireInSeconds: 30 * 60,
  retryDelaySeconds: 60,
  describe: (payload) => ({ accountId: payload.accountId }),
});

// Every 5 minutes: queue a sync for each connected account whose next snapshot is due (young
// videos hourly, the rest daily, the account's totals hourly). No payload: pg-boss's cron sends null.
const analyticsDueQueue = defineQueue({
  name: 'analytics.sync-due',
  payload: z.unknown(),
  expireInSeconds: 4 * 60,
  retryDelaySeconds: 30,
  cron: '*/5 * * * *',
});

/** Queues one account's sync (once: a sync already queued for it is not queued again). */
export function enqueueAnalyticsSync(boss: PgBoss, accountId: string): Promise<void> {
  return analyticsSyncQueue.send(
    boss,
    { v: 1, accountId },
    { singletonKey: `analytics-sync:${accountId}` },
  );
}

/** Registers the analytics sync in this process. */
export async function startAnalyticsWorkers(
  boss: PgBoss,
  sync: AnalyticsSync,
  options: { logger: Logger; concurrency?: number },
): Promise<void> {
  await analyticsSyncQueue.work(boss, options.logger, {
    concurrency: options.concurrency ?? 4,
    run: async (payload, job) => {
      const outcome = await sync.syncAccount(payload.accountId, { signal: job.signal });
      if (outcome.status === 'failed') {
        options.logger.warn({ accountId: payload.accountId, outcome }, 'analytics sync failed');
      }
    },
  });
  await analyticsDueQueue.work(boss, options.logger, {
    concurrency: 1,
    run: async () => {
      const due = await sync.dueAccountIds();
      for (const accountId of due) await enqueueAnalyticsSync(boss, accountId);
      if (due.length > 0) options.logger.info({ queued: due.length }, 'analytics syncs queued');
    },
  });
}
