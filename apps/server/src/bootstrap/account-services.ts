import type { AppContext } from '../context.ts';
import { createAccountRepository } from '../modules/accounts/repository.ts';
import { createAccountService } from '../modules/accounts/service.ts';
import { createTokenService } from '../modules/accounts/token-service.ts';
import { enqueueAnalyticsSync } from '../modules/analytics/jobs.ts';
import { createAnalyticsRepository } from '../modules/analytics/repository.ts';
import { createAnalyticsService } from '../modules/analytics/service.ts';
import { createAnalyticsSync } from '../modules/analytics/sync.ts';
import type { Notify } from '../modules/notifications/service.ts';
import type { ScheduleRepository } from '../modules/schedules/repository.ts';
import { accountPostStats } from '../modules/schedules/service.ts';
import { oauthRedirectUri } from './tiktok.ts';
import type { Wiring } from './wiring.ts';

/** Connected TikTok accounts, their tokens, and the analytics synced from them. */
export function createAccountServices(
  { config, logger, database, boss }: Wiring,
  parts: Pick<AppContext, 'cipher' | 'tiktok'> & {
    notify: Notify;
    scheduleRepository: ScheduleRepository;
  },
): Pick<AppContext, 'accountRepository' | 'tokens' | 'accounts' | 'analyticsSync' | 'analytics'> {
  const { cipher, tiktok, notify } = parts;
  const accountRepository = createAccountRepository(database.db);
  const tokens = createTokenService({
    accounts: accountRepository,
    cipher,
    tiktok,
    logger,
    notify,
  });
  const accounts = createAccountService({
    accounts: accountRepository,
    tokens,
    tiktok,
    cipher,
    postStats: accountPostStats(parts.scheduleRepository),
    redirectUri: oauthRedirectUri(config),
    logger,
    // A new connection gets its analytics at once rather than at the next 5-minute sweep.
    onConnected: (accountId) => enqueueAnalyticsSync(boss, accountId),
  });
  const analyticsRepository = createAnalyticsRepository(database.db);
  const analyticsSync = createAnalyticsSync({
    repository: analyticsRepository,
    accounts: accountRepository,
    tokens,
    tiktok,
    logger,
  });
  return {
    accountRepository,
    tokens,
    accounts,
    analyticsSync,
    analytics: createAnalyticsService({ repository: analyticsRepository }),
  };
}
