import type { CreatorOptions } from '@cadence/shared/schemas/account';
import type { DatedCreatorOptions } from '@cadence/shared/schedule/creator-options';
import type {
  EditPost,
  PostingSlots,
  SchedulePreview,
  SchedulePreviewBody,
} from '@cadence/shared/schemas/planning';
import { allocateSlots, normalizeSlots, type WeeklySlot } from '@cadence/shared/schedule/slots';
import {
  planErrorFields,
  type AddToQueueRequest,
  type CreateScheduleRequest,
  type Post,
  type PostStatus,
  type SpacedIntervalInput,
} from '@cadence/shared/schemas/schedule';
import {
  DEFAULT_HORIZON_DAYS,
  planDailyCap,
  type DailyCapPlan,
} from '@cadence/shared/schedule/daily-cap';
import {
  localDateOf,
  planSchedule,
  previewSchedule,
  SUPPORTED_INSTANTS_END_MS,
  type PlannedPost,
} from '@cadence/shared/schedule/planner';
import { failRemedy } from '@cadence/shared/publish-fail-reasons';
import type { TranslationKey } from '@cadence/shared/translation-key';
import type { Logger } from 'pino';
import { isUniqueViolation } from '../../db/pg-errors.ts';
import { AppError } from '../../lib/app-error.ts';
import type { RequestKey } from '../../lib/idempotency.ts';
import { validateForTikTok } from '../../media/probe.ts';
import { exceedsDurationLimit, type TikTokClient } from '../../tiktok/tiktok-client.ts';
import type { AccountRepository } from '../accounts/repository.ts';
import { createCreatorInfoReader, type AccountPostStats } from '../accounts/service.ts';
import type { TokenService } from '../accounts/token-service.ts';
import type { MediaService } from '../media/service.ts';
import type { PostingSlotRepository } from '../slots/repository.ts';
import type { UserRepository } from '../users/repository.ts';
import { askCreator, creatorOptionsAt, creatorRuleKeys, startOfNextDay } from './creator-rules.ts';
import type { ScheduleKind } from './db-types.ts';
import { postViewer } from './post-view.ts';
import {
  DraftGoneError,
  type PostSettings,
  type PostViewRow,
  type ScheduleRepository,
} from './repository.ts';

/** Translation keys this module adds (fr/en texts are in the lead's locale files). */
export const scheduleServiceErrorKeys = {
  ...creatorRuleKeys,
  videoTooLong: 'schedules.errors.videoTooLong',
  videoNotPostable: 'schedules.errors.videoNotPostable',
  notPending: 'schedules.errors.notPending',
  notFailed: 'schedules.errors.notFailed',
  accountDeleted: 'schedules.errors.accountDeleted',
  cannotSucceedAsIs: 'schedules.errors.cannotSucceedAsIs',
  lockedPublishing: 'schedules.errors.lockedPublishing',
  lockedPublished: 'schedules.errors.lockedPublished',
  lockedClosed: 'schedules.errors.lockedClosed',
  notRestorable: 'schedules.errors.notRestorable',
  restoreTimePassed: 'schedules.errors.restoreTimePassed',
  notReschedulable: 'schedules.errors.notReschedulable',
  noSlots: 'schedules.errors.noSlots',
  noFreeSlot: 'schedules.errors.noFreeSlot',
  unauditedSelfOnly: 'schedules.errors.unauditedSelfOnly',
  unauditedPublicAccount: 'schedules.errors.unauditedPublicAccount',
} as const satisfies Record<string, TranslationKey>;
const keys = scheduleServiceErrorKeys;

/** What every way of scheduling carries: the form without its timing. */
type ScheduleContent = Pick<
  CreateScheduleRequest,
  | 'accountId'
  | 'mediaIds'
  | 'posts'
  | 'privacyLevel'
  | 'allowComment'
  | 'allowDuet'
  | 'allowStitch'
  | 'commercialContent'
  | 'isAigc'
  | 'delivery'
>;

/** How a schedule's times were chosen, as its row keeps it. */
interface Timing {
  kind: ScheduleKind;
  timeZone: string;
  date: string | null;
  time: string | null;
  spacedInterval: SpacedIntervalInput | null;
  randomized: boolean;
  /** The draft this schedule replaces (deleted with its creation). */
  draftId?: string | undefined;
}

/** A schedule made, or the one an earlier request with the same Idempotency-Key made. */
export interface ScheduleMade {
  scheduleId: string;
  posts: Post[];
  /** True when the answer is the earlier request's (nothing was made now). */
  replayed: boolean;
}

type AccountRow = NonNullable<Awaited<ReturnType<AccountRepository['findForUser']>>>;

const DAY_MS = 24 * 60 * 60_000;
/** Free slot times shown with an account's slots. */
const NEXT_FREE_SHOWN = 10;

export interface ScheduleServiceDeps {
  /** Where TikTok's video pages are: config.tiktok.authBase (the sandbox in sandbox mode). */
  tiktokWebBase: string;
  repository: ScheduleRepository;
  accounts: AccountRepository;
  tokens: TokenService;
  tiktok: TikTokClient;
  media: MediaService;
  users: Pick<UserRepository, 'isPro' | 'timeZoneOf'>;
  /** An account's posts per day of a zone that count towards the cap (PostListing.accountDayCounts). */
  dayCounts: ScheduleRepository['accountDayCounts'];
  /** TIKTOK_DAILY_POST_CAP. */
  dailyPostCap: number;
  /** TIKTOK_APP_AUDITED: false allows only 'Only me' posts to private accounts. */
  appAudited: boolean;
  /** The accounts' weekly posting slots ('Add to queue'). */
  slots: PostingSlotRepository;
  /** Queues the publisher's wake-up for a post at `at` (the publish queue, wired in bootstrap). */
  wake: (postId: string, at: Date) => Promise<void>;
  logger: Pick<Logger, 'warn'>;
  now?: () => Date;
  random?: () => number;
}

/** Schedules (the form's submissions) and their posts, as the signed-in user sees them. */
export function createScheduleService(deps: ScheduleServiceDeps) {
  const { repository, accounts, tokens, tiktok, media, users, wake, logger } = deps;
  const { dayCounts, dailyPostCap, slots, appAudited } = deps;

  /**
   * An app TikTok has not audited may post only SELF_ONLY, to private accounts (creator_info
   * offers PUBLIC_TO_EVERYONE only to public ones): refused here rather than at publish time.
   */
  function checkUnaudited(
    privacyLevel: string | null,
    creator: Pick<CreatorOptions, 'privacyLevelOptions'> | null,
  ): void {
    if (appAudited) return;
    if (privacyLevel !== 'SELF_ONLY') {
      throw new AppError('validation_failed', 'Unaudited apps post only SELF_ONLY', {
        privacyLevel: keys.unauditedSelfOnly,
      });
    }
    if (creator?.privacyLevelOptions.includes('PUBLIC_TO_EVERYONE') === true) {
      throw new AppError('conflict', 'Unaudited apps post only to private accounts', {
        accountId: keys.unauditedPublicAccount,
      });
    }
  }
  const now = deps.now ?? (() => new Date());
  const readCreatorInfo = createCreatorInfoReader({ accounts, tokens, tiktok, now });
  const toPost = postViewer(deps.tiktokWebBase);

  /** Queues the wake-ups; a failure here is repaired by the minute sweep, so it is only logged. */
  async function wakeAll(posts: readonly { id: string; dueAt: Date }[]): Promise<void> {
    for (const post of posts) {
      await wake(post.id, post.dueAt).catch((error: unknown) => {
        logger.warn({ err: error, postId: post.id }, 'publish job not queued; the sweep will');
      });
    }
  }

  /**
   * TikTok's rules for posts of `account` due at `dueAts` (creatorOptionsAt), read and checked at
   * submit as TikTok requires.
   */
  async function creatorOptions(
    account: AccountRow,
    due: { immediate: boolean; dueAts: readonly Date[]; timeZone: string },
  ): Promise<DatedCreatorOptions | null> {
    const info = await askCreator(readCreatorInfo, account);
    return creatorOptionsAt(info, { ...due, now: now() });
  }

  async function requirePost(userId: string, id: string) {
    const row = await repository.findPostView(userId, id);
    // Someone else's post and a missing one look the same.
    if (!row) throw new AppError('not_found', 'No such post');
    return row;
  }

  /** A failed post that cannot work as it is (failRemedy) is neither retried nor rescheduled. */
  function requireCanSucceed(row: { status: PostStatus; fail_reason: string | null }): void {
    if (row.status === 'failed' && failRemedy(row.fail_reason) === 'schedule_again') {
      throw wrongState(keys.cannotSucceedAsIs);
    }
  }

  function wrongState(key: TranslationKey, field = 'status'): AppError {
    return new AppError('conflict', 'The post is not in a state that allows this', {
      [field]: key,
    });
  }

  /** Why a post that is not pending can no longer be edited, by what it is now. */
  function lockedKey(status: PostStatus): TranslationKey {
    switch (status) {
      case 'publishing':
        return keys.lockedPublishing;
      case 'completed':
        return keys.lockedPublished;
      case 'failed':
      case 'cancelled':
        return keys.lockedClosed;
      case 'pending':
        return keys.notPending;
    }
  }

  async function postAfterChange(
    userId: string,
    id: string,
    changed: boolean,
    wrongStateKey: TranslationKey | ((status: PostStatus) => TranslationKey),
  ): Promise<Post> {
    const row = await requirePost(userId, id);
    if (!changed) {
      throw wrongState(
        typeof wrongStateKey === 'function' ? wrongStateKey(row.status) : wrongStateKey,
      );
    }
    return toPost(row);
  }

  function requireFuture(dueAt: Date, field = 'dueAt'): void {
    if (dueAt.getTime() <= now().getTime()) {
      throw new AppError('validation_failed', 'The new time is in the past', {
        [field]: 'errors.dateInPast',
      });
    }
  }

  /** The settings an edit asks for, checked as at submit: TikTok's options and disclosure rules. */
  async function editedSettings(
    userId: string,
    row: PostViewRow,
    edit: EditPost,
  ): Promise<PostSettings> {
    const inbox = row.delivery === 'inbox';
    const settings: PostSettings = {
      // An inbox draft's privacy is the creator's to set in the TikTok app: none is kept.
      privacy_level: inbox ? null : (edit.privacyLevel ?? row.privacy_level),
      allow_comment: edit.allowComment ?? row.allow_comment,
      allow_duet: edit.allowDuet ?? row.allow_duet,
      allow_stitch: edit.allowStitch ?? row.allow_stitch,
    };
    const { enabled, brandedContent } = row.commercial_content;
    if (enabled && brandedContent && settings.privacy_level === 'SELF_ONLY') {
      throw new AppError('validation_failed', 'Branded content cannot be private', {
        privacyLevel: 'errors.brandedContentPrivate',
      });
    }
    const account = row.account_id && (await accounts.findForUser(userId, row.account_id));
    if (!account) throw wrongState(keys.accountDeleted, 'accountId');
    const creator = await creatorOptions(account, {
      immediate: false,
      dueAts: [edit.dueAt === undefined ? row.due_at : new Date(edit.dueAt)],
      timeZone: await capZone(userId, row.time_zone),
    });
    if (!inbox) checkUnaudited(settings.privacy_level, creator);
    if (creator === null) return settings;
    if (
      !inbox &&
      edit.privacyLevel !== undefined &&
      (settings.privacy_level === null ||
        !creator.privacyLevelOptions.some((level) => level === settings.privacy_level))
    ) {
      throw new AppError('validation_failed', 'Privacy level not offered', {
        privacyLevel: 'errors.selectPrivacy',
      });
    }
    return {
      ...settings,
      allow_comment: settings.allow_comment && !creator.commentDisabled,
      allow_duet: settings.allow_duet && !creator.duetDisabled,
      allow_stitch: settings.allow_stitch && !creator.stitchDisabled,
    };
  }

  /** The zone whose days TikTok's daily cap is counted in: the user's setting, else `fallback`. */
  async function capZone(userId: string, fallback: string): Promise<string> {
    return (await users.timeZoneOf(userId)) ?? fallback;
  }

  /**
   * The cap planner over the account's posts around `posts` (a day before the first to a year
   * after the last, so every suggestion knows the days it lands on).
   */
  async function capPlanFor(
    userId: string,
    accountId: string,
    posts: readonly { dueAt: Date }[],
    timeZone: string,
  ): Promise<DailyCapPlan<number>> {
    const times = posts.map((post) => post.dueAt.getTime());
    const from = new Date(Math.min(...times) - DAY_MS);
    // Never past the supported years (a post on 9998-12-31 would look a year into 10000, which
    // PostgreSQL cannot read): the cap planner sees no posts there, as there can be none.
    const to = new Date(
      Math.min(Math.max(...times) + (DEFAULT_HORIZON_DAYS + 1) * DAY_MS, SUPPORTED_INSTANTS_END_MS),
    );
    const existing = await dayCounts(userId, accountId, from, to, timeZone);
    return planDailyCap({
      existing,
      proposed: posts.map((post, index) => ({ key: index, dueAt: post.dueAt })),
      cap: dailyPostCap,
      timeZone,
    });
  }

  /** The account, if it is the user's; 404 otherwise (someone else's looks like none). */
  async function requireAccount(userId: string, accountId: string): Promise<AccountRow> {
    const account = await accounts.findForUser(userId, accountId);
    if (!account) throw new AppError('not_found', 'No such account');
    return account;
  }

  /**
   * The next `count` free slot times of the account after `after` (now), in `timeZone`: slots
   * holding a post (pending, publishing or published) are taken, and days at the daily cap are
   * skipped.
   */
  async function freeSlots(
    userId: string,
    accountId: string,
    weekly: readonly WeeklySlot[],
    timeZone: string,
    count: number,
    after = now(),
  ): Promise<Date[]> {
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

  async function slotsView(userId: string, accountId: string): Promise<PostingSlots> {
    const weekly = await slots.list(accountId);
    const timeZone = (await users.timeZoneOf(userId)) ?? 'UTC';
    const nextFree = await freeSlots(userId, accountId, weekly, timeZone, NEXT_FREE_SHOWN);
    return {
      accountId,
      timeZone,
      slots: weekly,
      nextFree: nextFree.map((at) => at.toISOString()),
      dailyCap: dailyPostCap,
    };
  }

  /**
   * Creates a schedule: the account and videos checked, the times planned (`plan`, once the
   * account is known), TikTok's current rules applied, then the schedule and its posts stored
   * (and its draft deleted) in one transaction, and the publisher woken for each post.
   */
  async function schedulePosts(
    userId: string,
    content: ScheduleContent,
    timing: Timing,
    plan: (account: AccountRow, today: { todayRefused: boolean }) => Promise<PlannedPost[]>,
    requestKey: RequestKey | null,
  ): Promise<ScheduleMade> {
    // The same request again gets what the first made, before any check that could now refuse it
    // (its draft is gone, its time has passed).
    const earlier = requestKey && (await madeBy(userId, requestKey));
    if (earlier) return earlier;
    const account = await accounts.findForUser(userId, content.accountId);
    if (!account) {
      throw new AppError('conflict', 'No such TikTok account', {
        accountId: 'errors.selectTikTokAccount',
      });
    }
    // Publishing needs video.publish; an inbox draft needs video.upload.
    const scope = content.delivery === 'inbox' ? 'video.upload' : 'video.publish';
    if (account.status !== 'connected' || !account.scopes.includes(scope)) {
      throw new AppError('conflict', 'The account cannot publish', {
        accountId: keys.accountNotConnected,
      });
    }
    const videos = await media.findMany(userId, content.mediaIds);
    if (videos.length !== new Set(content.mediaIds).size) {
      throw new AppError('validation_failed', 'Unknown video', {
        mediaIds: 'errors.invalidVideo',
      });
    }
    // TikTok's answer first: while it says the creator cannot post now, the queue starts tomorrow.
    const info = await askCreator(readCreatorInfo, account);
    const planned = await plan(account, { todayRefused: info.cannotPostReason !== null });
    const creator = creatorOptionsAt(info, {
      immediate: timing.kind === 'immediate',
      dueAts: planned.map((post) => post.dueAt),
      timeZone: await capZone(userId, timing.timeZone),
      now: now(),
    });
    // An inbox draft carries no privacy: the creator sets it in the TikTok app.
    const privacyLevel = content.delivery === 'inbox' ? null : (content.privacyLevel ?? null);
    if (content.delivery !== 'inbox') checkUnaudited(privacyLevel, creator);
    if (
      content.delivery !== 'inbox' &&
      (privacyLevel === null || (creator && !creator.privacyLevelOptions.includes(privacyLevel)))
    ) {
      throw new AppError('validation_failed', 'Privacy level not offered', {
        privacyLevel: 'errors.selectPrivacy',
      });
    }
    if (
      creator &&
      videos.some((video) =>
        exceedsDurationLimit(video.duration_seconds, creator.maxVideoPostDurationSec),
      )
    ) {
      throw new AppError('validation_failed', 'A video is too long for this account', {
        mediaIds: keys.videoTooLong,
      });
    }
    // Story and meme sources are taken outside TikTok's limits; they cannot be posted as they are.
    const unpostable = videos.filter(
      (video) => validateForTikTok(video.probe, { maxDurationSeconds: Infinity }).length > 0,
    );
    if (unpostable.length > 0) {
      throw new AppError('validation_failed', 'A video does not meet TikTok’s limits', {
        mediaIds: keys.videoNotPostable,
      });
    }

    // A cover frame must lie inside its video.
    const durations = new Map(videos.map((video) => [video.id, video.duration_seconds]));
    const coverOutside = content.posts.findIndex(
      (post) =>
        post.coverTimestampMs !== undefined &&
        post.coverTimestampMs > (durations.get(post.mediaId) ?? 0) * 1000,
    );
    if (coverOutside !== -1) {
      throw new AppError('validation_failed', 'The cover frame lies beyond the video', {
        [`posts.${coverOutside}.coverTimestampMs`]: 'errors.invalidCoverTime',
      });
    }

    const captions = new Map(content.posts.map((post) => [post.mediaId, post]));
    let inserted: { scheduleId: string; postIds: string[] };
    try {
      inserted = await repository.insertSchedule(
        {
          user_id: userId,
          account_id: account.id,
          publish_type: timing.kind,
          time_zone: timing.timeZone,
          date: timing.date,
          time: timing.time,
          spaced_interval: timing.spacedInterval ? JSON.stringify(timing.spacedInterval) : null,
          privacy_level: privacyLevel,
          // TikTok's guidelines: comment/duet/stitch off when the creator disabled them.
          allow_comment: content.allowComment && !(creator?.commentDisabled ?? false),
          allow_duet: content.allowDuet && !(creator?.duetDisabled ?? false),
          allow_stitch: content.allowStitch && !(creator?.stitchDisabled ?? false),
          commercial_content: JSON.stringify(content.commercialContent),
          is_aigc: content.isAigc ?? false,
          delivery: content.delivery ?? 'direct',
          request_key: requestKey?.key ?? null,
          request_fingerprint: requestKey?.fingerprint ?? null,
        },
        account.username,
        planned.map((post) => ({
          media_id: post.mediaId,
          title: captions.get(post.mediaId)?.title ?? '',
          cover_timestamp_ms: captions.get(post.mediaId)?.coverTimestampMs ?? null,
          due_at: post.dueAt,
          randomized: timing.randomized,
          jitter_minutes: post.jitterMinutes,
        })),
        { fromDraft: timing.draftId },
      );
    } catch (error) {
      if (error instanceof DraftGoneError) throw new AppError('not_found', 'No such draft');
      // A twin request with the same key committed first (it held the key until then).
      const twin = requestKey && isUniqueViolation(error) && (await madeBy(userId, requestKey));
      if (twin) return twin;
      throw error;
    }
    const { scheduleId, postIds } = inserted;
    await wakeAll(postIds.map((id, index) => ({ id, dueAt: planned[index]?.dueAt ?? now() })));
    const rows = await repository.postViewsByIds(userId, postIds);
    return { scheduleId, posts: rows.map(toPost), replayed: false };
  }

  /**
   * The schedule an earlier request with this key made, its posts as they are now; undefined when
   * there is none; 409 when that request asked something else (a key is one request's).
   */
  async function madeBy(userId: string, requestKey: RequestKey): Promise<ScheduleMade | undefined> {
    const schedule = await repository.findByRequestKey(userId, requestKey.key);
    if (!schedule) return undefined;
    if (schedule.request_fingerprint !== requestKey.fingerprint) {
      throw new AppError('conflict', 'This Idempotency-Key was used for another request');
    }
    const rows = await repository.postViewsOfSchedule(userId, schedule.id);
    return { scheduleId: schedule.id, posts: rows.map(toPost), replayed: true };
  }

  return {
    /** POST /api/schedules: the form's request, planned by the shared planner. */
    async create(
      userId: string,
      request: CreateScheduleRequest,
      requestKey: RequestKey | null = null,
    ): Promise<ScheduleMade> {
      const randomized =
        request.publishType === 'spaced' && request.spacedInterval?.randomizeTime === true;
      if (randomized && !(await users.isPro(userId))) {
        throw new AppError('pro_required', 'Randomized times are a Pro feature');
      }
      const timing: Timing = {
        kind: request.publishType,
        timeZone: request.timeZone,
        date: request.date ?? null,
        time: request.time ?? null,
        spacedInterval: request.spacedInterval ?? null,
        randomized,
        draftId: request.draftId,
      };
      return schedulePosts(
        userId,
        request,
        timing,
        async (account) => {
          const plan = planSchedule(request, now(), deps.random);
          if (!plan.ok) {
            throw new AppError(
              'validation_failed',
              'The schedule cannot be planned',
              planErrorFields[plan.code],
            );
          }
          if (request.overCap !== 'postpone') return plan.posts;
          const zone = await capZone(userId, request.timeZone);
          const capPlan = await capPlanFor(userId, account.id, plan.posts, zone);
          return plan.posts.map((post, index) => {
            const moved = capPlan.overflow.find((over) => over.key === index)?.suggestedDueAt;
            return moved ? { ...post, dueAt: moved } : post;
          });
        },
        requestKey,
      );
    },

    /**
     * What the form would plan, before it is submitted: every slot (with its ±1 h window when
     * randomized), its day in the user's zone, and the posts beyond the daily cap with the same
     * time on the next day with room (what overCap: 'postpone' would do).
     */
    async preview(userId: string, body: SchedulePreviewBody): Promise<SchedulePreview> {
      const account = await accounts.findForUser(userId, body.accountId);
      if (!account) {
        throw new AppError('conflict', 'No such TikTok account', {
          accountId: 'errors.selectTikTokAccount',
        });
      }
      if (body.spacedInterval?.randomizeTime === true && body.publishType === 'spaced') {
        if (!(await users.isPro(userId))) {
          throw new AppError('pro_required', 'Randomized times are a Pro feature');
        }
      }
      const preview = previewSchedule(body, now());
      if (!preview.ok) {
        throw new AppError(
          'validation_failed',
          'The schedule cannot be planned',
          planErrorFields[preview.code],
        );
      }
      const zone = await capZone(userId, body.timeZone);
      const capPlan = await capPlanFor(userId, account.id, preview.posts, zone);
      const overflow = new Map(capPlan.overflow.map((over) => [over.key, over]));
      return {
        posts: preview.posts.map((post, index) => {
          const over = overflow.get(index);
          return {
            mediaId: post.mediaId,
            dueAt: post.dueAt.toISOString(),
            earliest: post.earliest.toISOString(),
            latest: post.latest.toISOString(),
            date: localDateOf(post.dueAt, zone),
            overCap: over !== undefined,
            suggestedDueAt: over?.suggestedDueAt?.toISOString() ?? null,
          };
        }),
        days: capPlan.days,
        dailyCap: dailyPostCap,
        timeZone: zone,
      };
    },

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
      const timeZone = (await users.timeZoneOf(userId)) ?? request.timeZone;
      const timing: Timing = {
        kind: 'queue',
        timeZone,
        date: null,
        time: null,
        spacedInterval: null,
        randomized: false,
      };
      return schedulePosts(
        userId,
        request,
        timing,
        async (account, { todayRefused }) => {
          const weekly = await slots.list(account.id);
          if (weekly.length === 0) {
            throw new AppError('conflict', 'The account has no posting slots', {
              accountId: keys.noSlots,
            });
          }
          const times = await freeSlots(
            userId,
            account.id,
            weekly,
            timeZone,
            request.mediaIds.length,
            // TikTok takes no more posts today: tomorrow's first free slot is the queue's next.
            todayRefused ? startOfNextDay(now(), timeZone) : now(),
          );
          if (times.length < request.mediaIds.length) {
            throw new AppError('conflict', 'No free slot left', { accountId: keys.noFreeSlot });
          }
          return request.mediaIds.map((mediaId, index) => ({
            mediaId,
            dueAt: times[index] ?? now(),
            jitterMinutes: 0,
          }));
        },
        requestKey,
      );
    },

    /** The account's weekly slots and the next free ones. */
    async getSlots(userId: string, accountId: string): Promise<PostingSlots> {
      await requireAccount(userId, accountId);
      return slotsView(userId, accountId);
    },

    /** Replaces the account's weekly slots (duplicates merged). */
    async setSlots(
      userId: string,
      accountId: string,
      weekly: readonly WeeklySlot[],
    ): Promise<PostingSlots> {
      await requireAccount(userId, accountId);
      await slots.replace(accountId, normalizeSlots(weekly));
      return slotsView(userId, accountId);
    },

    async get(userId: string, id: string): Promise<Post> {
      return toPost(await requirePost(userId, id));
    },

    async cancel(userId: string, id: string): Promise<Post> {
      return postAfterChange(userId, id, await repository.cancel(userId, id), keys.notPending);
    },

    /**
     * A new time for a pending post, or for a cancelled or failed one, which becomes pending again
     * (a failed one as a new TikTok post, like a retry).
     */
    async reschedule(userId: string, id: string, dueAt: Date): Promise<Post> {
      requireFuture(dueAt);
      const row = await requirePost(userId, id);
      let changed: boolean;
      switch (row.status) {
        case 'pending':
          changed = await repository.reschedule(userId, id, dueAt);
          break;
        case 'cancelled':
        case 'failed':
          if (row.account_id === null) throw wrongState(keys.accountDeleted, 'accountId');
          requireCanSucceed(row);
          changed = await repository.reopen(userId, id, ['cancelled', 'failed'], dueAt);
          break;
        case 'publishing':
        case 'completed':
          throw wrongState(keys.notReschedulable);
      }
      const post = await postAfterChange(userId, id, changed, (status) =>
        status === 'pending' ? keys.notPending : keys.notReschedulable,
      );
      await wakeAll([{ id, dueAt }]);
      return post;
    },

    /** Caption, TikTok settings and time of a pending post; 409 (and why) once it is publishing. */
    async edit(userId: string, id: string, edit: EditPost): Promise<Post> {
      const row = await requirePost(userId, id);
      if (row.status !== 'pending') throw wrongState(lockedKey(row.status));
      const dueAt = edit.dueAt === undefined ? undefined : new Date(edit.dueAt);
      if (dueAt) requireFuture(dueAt);
      const changesSettings =
        edit.privacyLevel !== undefined ||
        edit.allowComment !== undefined ||
        edit.allowDuet !== undefined ||
        edit.allowStitch !== undefined;
      const settings = changesSettings ? await editedSettings(userId, row, edit) : undefined;
      const changed = await repository.editPending(
        userId,
        id,
        { title: edit.title, dueAt },
        settings,
      );
      const post = await postAfterChange(userId, id, changed, lockedKey);
      if (dueAt) await wakeAll([{ id, dueAt }]);
      return post;
    },

    /** A cancelled post back to pending at its own time, if that time is still ahead. */
    async restore(userId: string, id: string): Promise<Post> {
      const row = await requirePost(userId, id);
      if (row.status !== 'cancelled') throw wrongState(keys.notRestorable);
      if (row.account_id === null) throw wrongState(keys.accountDeleted, 'accountId');
      const changed = await repository.reopen(userId, id, ['cancelled'], {
        keep: true,
        after: now(),
      });
      const post = await postAfterChange(userId, id, changed, (status) =>
        status === 'cancelled' ? keys.restoreTimePassed : keys.notRestorable,
      );
      await wakeAll([{ id, dueAt: row.due_at }]);
      return post;
    },

    async retry(userId: string, id: string): Promise<Post> {
      const row = await requirePost(userId, id);
      if (row.status === 'failed' && row.account_id === null) {
        throw new AppError('conflict', 'The account of this post was deleted', {
          accountId: keys.accountDeleted,
        });
      }
      requireCanSucceed(row);
      const dueAt = now();
      const post = await postAfterChange(
        userId,
        id,
        await repository.retry(userId, id, dueAt),
        keys.notFailed,
      );
      await wakeAll([{ id, dueAt }]);
      return post;
    },

    /** For the live stream: posts of the user changed at or after `since`. */
    async changedSince(userId: string, since: Date): Promise<Post[]> {
      return (await repository.changedSince(userId, since)).map(toPost);
    },
  };
}

export type ScheduleService = ReturnType<typeof createScheduleService>;

/** The accounts module's view of posts (counts on account cards, cancel on account removal). */
export function accountPostStats(repository: ScheduleRepository): AccountPostStats {
  return {
    pendingByAccount: (userId) => repository.pendingByAccount(userId),
    cancelPendingForAccount: (userId, accountId) =>
      repository.cancelPendingForAccount(userId, accountId),
  };
}
