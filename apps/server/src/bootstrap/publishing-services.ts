import type { AppContext } from '../context.ts';
import { createDraftRepository } from '../modules/drafts/repository.ts';
import { createDraftService } from '../modules/drafts/service.ts';
import { enqueueFallback } from '../modules/publishing/jobs.ts';
import { createWakeAnnouncer } from '../modules/publishing/wake-timers.ts';
import { createPostListingService } from '../modules/schedules/listing-service.ts';
import { createPostListing } from '../modules/schedules/post-listing.ts';
import type { ScheduleRepository } from '../modules/schedules/repository.ts';
import { createScheduleService } from '../modules/schedules/service.ts';
import { createPostingSlotRepository } from '../modules/slots/repository.ts';
import { createUserRepository } from '../modules/users/repository.ts';
import type { Wiring } from './wiring.ts';

/** Scheduling posts (and waking the publisher at their time), listing them, and drafts. */
export function createPublishingServices(
  { config, logger, database, boss }: Wiring,
  parts: Pick<AppContext, 'accountRepository' | 'tokens' | 'tiktok' | 'media'> & {
    scheduleRepository: ScheduleRepository;
  },
): Pick<AppContext, 'schedules' | 'postListing' | 'drafts'> {
  const { scheduleRepository, accountRepository, media } = parts;
  const announceWake = createWakeAnnouncer(database, logger);
  const schedules = createScheduleService({
    tiktokWebBase: config.tiktok.authBase,
    repository: scheduleRepository,
    dayCounts: (...args) => scheduleRepository.accountDayCounts(...args),
    dailyPostCap: config.planning.dailyPostCap,
    appAudited: config.tiktok.audited,
    slots: createPostingSlotRepository(database.db),
    accounts: accountRepository,
    tokens: parts.tokens,
    tiktok: parts.tiktok,
    media,
    users: createUserRepository(database.db),
    // The queue's job is the durable wake-up; the announcement arms the workers' timers.
    wake: async (postId, at) => {
      await Promise.all([enqueueFallback(boss, postId, at), announceWake(postId, at)]);
    },
    logger,
  });
  const postListing = createPostListingService({
    tiktokWebBase: config.tiktok.authBase,
    listing: createPostListing(database.db),
    users: createUserRepository(database.db),
    dailyPostCap: config.planning.dailyPostCap,
  });
  const drafts = createDraftService({
    repository: createDraftRepository(database.db),
    accounts: accountRepository,
    media,
    schedules,
  });
  return { schedules, postListing, drafts };
}
