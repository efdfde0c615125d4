import type PgBoss from 'pg-boss';
import type { Logger } from 'pino';
import { z } from 'zod';
import { defineQueue } from '../../jobs/queue.ts';
import type { TokenService } from './token-service.ts';

export const REFRESH_TOKENS_QUEUE = 'tiktok.refresh-tokens';

// Tokens are refreshed ahead of expiry, so a publish at 3 a.m. never meets a dead token.
// Periodic: no payload (pg-boss's cron sends null); a failed tick is retried, the next comes anyway.
const refreshTokensQueue = defineQueue({
  name: REFRESH_TOKENS_QUEUE,
  payload: z.unknown(),
  expireInSeconds: 4 * 60,
  retryDelaySeconds: 30,
  cron: '*/5 * * * *',
});

/** Registers the token refresh in this process. */
export async function startAccountWorkers(
  boss: PgBoss,
  tokens: Pick<TokenService, 'refreshDue'>,
  options: { logger: Logger },
): Promise<void> {
  await refreshTokensQueue.work(boss, options.logger, {
    concurrency: 1,
    run: async () => {
      const result = await tokens.refreshDue();
      if (result.refreshed + result.failed > 0)
        options.logger.info(result, 'TikTok tokens refreshed');
    },
  });
}
