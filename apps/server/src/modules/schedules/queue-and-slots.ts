// 'Add to queue' and the accounts' weekly posting slots it fills.
import { DEFAULT_HORIZON_DAYS } from '@cadence/shared/schedule/daily-cap';
import { allocateSlots, normalizeSlots, type WeeklySlot } from '@cadence/shared/schedule/slots';
import type { PostingSlots } from '@cadence/shared/schemas/planning';
import type { AddToQueueRequest } from '@cadence/shared/schemas/schedule';
import { AppError } from '../../lib/app-error.ts';
import type { RequestKey } from '../../lib/idempotency.ts';
import { startOfNextDay } from './creator-rules.ts';
import { DAY_MS } from './daily-cap-planning.ts';
import { scheduleServiceErrorKeys as keys } from './error-keys.ts';
import { schedulePosts, type ScheduleMade, type Timing } from './schedule-creation.ts';
import type { AccountRow, ScheduleContext } from './service-context.ts';

/** Free slot times shown with an account's slots. */
const NEXT_FREE_SHOWN = 10;

/** The account, if it is the user's; 404 otherwise (someone else's looks like none). */
async function requireAccount(
  context: ScheduleContext,
  userId: string,
  accountId: string,
): Promise<AccountRow> {
  const account = await context.deps.accounts.findForUser(userId, accountId);
  if (!account) throw new AppError('not_found', 'No such account');
  return account;
}

/**
 * The next `count` free slot times of the account after `after` (now), in `timeZone`: slots
 * holding a post (pending, publishing or published) are taken, and days at the daily cap are
 * skipped.
 */
async function freeSlots(
  context: ScheduleContext,
  userId: string,
  accountId: string,
  weekly: readonly WeeklySlot[],
  timeZone: string,
  count: number,
  after = context.now(),
): Promise<Date[]> {
  const { repository, dayCounts, dailyPostCap } = context.deps;
  if (weekly.length === 0) return [];
  const to = new Date(after.getTime() + (DEFAULT_HORIZON_DAYS + 1) * DAY_MS);
  const [taken, counts] = await Promise.all([
    repository.accountDueTimes(userId, accountId, after, to),
    dayCounts(userId, accountId, new Date(after.getTime() - DAY_MS), to, timeZone),
  ]);
  return allocateSlots({
    slots: weekly,
    timeZone,
    after,
    count,
    taken,
    dailyCap: { cap: dailyPostCap, counts },
  });
}

async function slotsView(
  context: ScheduleContext,
  userId: string,
  accountId: string,
): Promise<PostingSlots> {
  const { slots, users, dailyPostCap } = context.deps;
  const weekly = await slots.list(accountId);
  const timeZone = (await users.timeZoneOf(userId)) ?? 'UTC';
  const nextFree = await freeSlots(context, userId, accountId, weekly, timeZone, NEXT_FREE_SHOWN);
  return {
    accountId,
    timeZone,
    slots: weekly,
    nextFree: nextFree.map((at) => at.toISOString()),
    dailyCap: dailyPostCap,
  };
}

export function createQueueAndSlots(context: ScheduleContext) {
  const { deps, now } = context;
  return {
    /**
     * 'Add to queue': each video, in order, in the account's next free posting slot (in the
     * user's zone, else the request's), skipping days at the daily cap. Always: a slot on a full
     * day is not free, so the queue takes no over-cap choice (the form says so).
     */
    async addToQueue(
      userId: string,
      request: AddToQueueRequest,
      requestKey: RequestKey | null = null,
    ): Promise<ScheduleMade> {
      const timeZone = (await deps.users.timeZoneOf(userId)) ?? request.timeZone;
      const timing: Timing = {
        kind: 'queue',
        timeZone,
        date: null,
        time: null,
        spacedInterval: null,
        randomized: false,
      };
      const count = request.mediaIds.length;
      const plan = async (account: AccountRow, { todayRefused }: { todayRefused: boolean }) => {
        const weekly = await deps.slots.list(account.id);
        if (weekly.length === 0) {
          throw new AppError('conflict', 'The account has no posting slots', {
            accountId: keys.noSlots,
          });
        }
        // TikTok takes no more posts today: tomorrow's first free slot is the queue's next.
        const after = todayRefused ? startOfNextDay(now(), timeZone) : now();
        const times = await freeSlots(context, userId, account.id, weekly, timeZone, count, after);
        if (times.length < count) {
          throw new AppError('conflict', 'No free slot left', { accountId: keys.noFreeSlot });
        }
        return request.mediaIds.map((mediaId, index) => ({
          mediaId,
          dueAt: times[index] ?? now(),
          jitterMinutes: 0,
        }));
      };
      return schedulePosts(context, userId, request, timing, plan, requestKey);
    },

    /** The account's weekly slots and the next free ones. */
    async getSlots(userId: string, accountId: string): Promise<PostingSlots> {
      await requireAccount(context, userId, accountId);
      return slotsView(context, userId, accountId);
    },

    /** Replaces the account's weekly slots (duplicates merged). */
    async setSlots(
      userId: string,
      accountId: string,
      weekly: readonly WeeklySlot[],
    ): Promise<PostingSlots> {
      await requireAccount(context, userId, accountId);
      await deps.slots.replace(accountId, normalizeSlots(weekly));
      return slotsView(context, userId, accountId);
    },
  };
}
