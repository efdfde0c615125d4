import type { EditPost } from '@cadence/shared/schemas/planning';
import {
  planErrorFields,
  type CreateScheduleRequest,
  type Post,
  type PostStatus,
} from '@cadence/shared/schemas/schedule';
import { planSchedule } from '@cadence/shared/schedule/planner';
import type { TranslationKey } from '@cadence/shared/translation-key';
import type { Logger } from 'pino';
import { AppError } from '../../lib/app-error.ts';
import { validateForTikTok } from '../../media/probe.ts';
import type { TikTokClient, CreatorInfo } from '../../tiktok/tiktok-client.ts';
import { TikTokApiError } from '../../tiktok/tiktok-error.ts';
import type { AccountRepository } from '../accounts/repository.ts';
import type { AccountPostStats } from '../accounts/service.ts';
import { AccountNeedsReconnectError, type TokenService } from '../accounts/token-service.ts';
import type { MediaService } from '../media/service.ts';
import type { UserRepository } from '../users/repository.ts';
import { toPost } from './post-view.ts';
import type { PostSettings, PostViewRow, ScheduleRepository } from './repository.ts';

/** Translation keys this module adds (fr/en texts are in the lead's locale files). */
export const scheduleServiceErrorKeys = {
  accountNotConnected: 'schedules.errors.accountNotConnected',
  cannotPostNow: 'schedules.errors.cannotPostNow',
  videoTooLong: 'schedules.errors.videoTooLong',
  videoNotPostable: 'schedules.errors.videoNotPostable',
  tiktokUnavailable: 'schedules.errors.tiktokUnavailable',
  notPending: 'schedules.errors.notPending',
  notFailed: 'schedules.errors.notFailed',
  accountDeleted: 'schedules.errors.accountDeleted',
  lockedPublishing: 'schedules.errors.lockedPublishing',
  lockedPublished: 'schedules.errors.lockedPublished',
  lockedClosed: 'schedules.errors.lockedClosed',
  notRestorable: 'schedules.errors.notRestorable',
  restoreTimePassed: 'schedules.errors.restoreTimePassed',
  notReschedulable: 'schedules.errors.notReschedulable',
} as const satisfies Record<string, TranslationKey>;
const keys = scheduleServiceErrorKeys;

export interface ScheduleServiceDeps {
  repository: ScheduleRepository;
  accounts: AccountRepository;
  tokens: TokenService;
  tiktok: TikTokClient;
  media: MediaService;
  users: Pick<UserRepository, 'isPro'>;
  /** Queues the publisher's wake-up for a post at `at` (the publish queue, wired in bootstrap). */
  wake: (postId: string, at: Date) => Promise<void>;
  logger: Pick<Logger, 'warn'>;
  now?: () => Date;
  random?: () => number;
}

/** Schedules (the form's submissions) and their posts, as the signed-in user sees them. */
export function createScheduleService(deps: ScheduleServiceDeps) {
  const { repository, accounts, tokens, tiktok, media, users, wake, logger } = deps;
  const now = deps.now ?? (() => new Date());

  /** Queues the wake-ups; a failure here is repaired by the minute sweep, so it is only logged. */
  async function wakeAll(posts: readonly { id: string; dueAt: Date }[]): Promise<void> {
    for (const post of posts) {
      await wake(post.id, post.dueAt).catch((error: unknown) => {
        logger.warn({ err: error, postId: post.id }, 'publish job not queued; the sweep will');
      });
    }
  }

  /**
   * TikTok's current posting rules for the account (asked at submit, as TikTok requires). When
   * TikTok says the creator cannot post now (today's cap reached…), that only stops a post due
   * now: with `laterPost` the answer is null and the publisher asks again when the post is due.
   */
  async function creatorInfo(
    accountId: string,
    { laterPost }: { laterPost: boolean },
  ): Promise<CreatorInfo | null> {
    try {
      return await tokens.withAccessToken(accountId, (token) => tiktok.queryCreatorInfo(token));
    } catch (error) {
      if (laterPost && error instanceof TikTokApiError && error.kind === 'cannot_post_now') {
        return null;
      }
      if (error instanceof AccountNeedsReconnectError) {
        throw new AppError('conflict', 'The account must be reconnected', {
          accountId: keys.accountNotConnected,
        });
      }
      if (error instanceof TikTokApiError) {
        if (error.kind === 'cannot_post_now') {
          throw new AppError('conflict', 'The creator cannot post now', {
            accountId: keys.cannotPostNow,
          });
        }
        if (error.kind === 'auth') {
          throw new AppError('conflict', 'The account must be reconnected', {
            accountId: keys.accountNotConnected,
          });
        }
        throw new AppError('unavailable', 'TikTok did not answer', {
          accountId: keys.tiktokUnavailable,
        });
      }
      throw error;
    }
  }

  async function requirePost(userId: string, id: string) {
    const row = await repository.findPostView(userId, id);
    // Someone else's post and a missing one look the same.
    if (!row) throw new AppError('not_found', 'No such post');
    return row;
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
  async function editedSettings(row: PostViewRow, edit: EditPost): Promise<PostSettings> {
    const settings: PostSettings = {
      privacy_level: edit.privacyLevel ?? row.privacy_level,
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
    if (row.account_id === null) throw wrongState(keys.accountDeleted, 'accountId');
    const creator = await creatorInfo(row.account_id, { laterPost: true });
    if (creator === null) return settings;
    if (
      edit.privacyLevel !== undefined &&
      !creator.privacyLevelOptions.includes(settings.privacy_level)
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

  return {
    async create(
      userId: string,
      request: CreateScheduleRequest,
    ): Promise<{ scheduleId: string; posts: Post[] }> {
      const account = await accounts.findForUser(userId, request.accountId);
      if (!account) {
        throw new AppError('conflict', 'No such TikTok account', {
          accountId: 'errors.selectTikTokAccount',
        });
      }
      if (account.status !== 'connected' || !account.scopes.includes('video.publish')) {
        throw new AppError('conflict', 'The account cannot publish', {
          accountId: keys.accountNotConnected,
        });
      }
      const videos = await media.findMany(userId, request.mediaIds);
      if (videos.length !== new Set(request.mediaIds).size) {
        throw new AppError('validation_failed', 'Unknown video', {
          mediaIds: 'errors.invalidVideo',
        });
      }
      const randomize =
        request.publishType === 'spaced' && request.spacedInterval?.randomizeTime === true;
      if (randomize && !(await users.isPro(userId))) {
        throw new AppError('pro_required', 'Randomized times are a Pro feature');
      }
      const plan = planSchedule(request, now(), deps.random);
      if (!plan.ok) {
        throw new AppError(
          'validation_failed',
          'The schedule cannot be planned',
          planErrorFields[plan.code],
        );
      }

      const creator = await creatorInfo(account.id, {
        laterPost: request.publishType !== 'immediate',
      });
      if (creator && !creator.privacyLevelOptions.includes(request.privacyLevel)) {
        throw new AppError('validation_failed', 'Privacy level not offered', {
          privacyLevel: 'errors.selectPrivacy',
        });
      }
      if (
        creator &&
        videos.some((video) => video.duration_seconds > creator.maxVideoPostDurationSec)
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

      const titles = new Map(request.posts.map((post) => [post.mediaId, post.title]));
      const { scheduleId, postIds } = await repository.insertSchedule(
        {
          user_id: userId,
          account_id: account.id,
          publish_type: request.publishType,
          time_zone: request.timeZone,
          date: request.date ?? null,
          time: request.time ?? null,
          spaced_interval: request.spacedInterval ? JSON.stringify(request.spacedInterval) : null,
          privacy_level: request.privacyLevel,
          // TikTok's guidelines: comment/duet/stitch off when the creator disabled them.
          allow_comment: request.allowComment && !(creator?.commentDisabled ?? false),
          allow_duet: request.allowDuet && !(creator?.duetDisabled ?? false),
          allow_stitch: request.allowStitch && !(creator?.stitchDisabled ?? false),
          commercial_content: JSON.stringify(request.commercialContent),
        },
        account.username,
        plan.posts.map((planned) => ({
          media_id: planned.mediaId,
          title: titles.get(planned.mediaId) ?? '',
          due_at: planned.dueAt,
          randomized: randomize,
          jitter_minutes: planned.jitterMinutes,
        })),
      );
      await wakeAll(postIds.map((id, index) => ({ id, dueAt: plan.posts[index]?.dueAt ?? now() })));
      const rows = await repository.postViewsByIds(userId, postIds);
      return { scheduleId, posts: rows.map(toPost) };
    },

    async get(userId: string, id: string): Promise<Post> {
      return toPost(await requirePost(userId, id));
    },

    async list(userId: string): Promise<Post[]> {
      return (await repository.listPostViews(userId)).map(toPost);
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
      const settings = changesSettings ? await editedSettings(row, edit) : undefined;
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
