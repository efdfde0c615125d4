// Changing a post before it is published: its caption, TikTok settings and time (edit), or a new
// time for a pending, cancelled or failed post (reschedule).
import type { DatedCreatorOptions } from '@cadence/shared/schedule/creator-options';
import type { EditPost } from '@cadence/shared/schemas/planning';
import type { Post } from '@cadence/shared/schemas/schedule';
import { AppError } from '../../lib/app-error.ts';
import { askCreator, creatorOptionsAt } from './creator-rules.ts';
import { capZone } from './daily-cap-planning.ts';
import { scheduleServiceErrorKeys as keys } from './error-keys.ts';
import { lockedKey, requireCanSucceed, requireFuture, wrongState } from './post-conflicts.ts';
import type { PostSettings } from './pending-post-edits.ts';
import type { PostViewRow } from './post-view-queries.ts';
import {
  postAfterChange,
  requirePost,
  type AccountRow,
  type ScheduleContext,
} from './service-context.ts';
import { checkUnaudited } from './submit-checks.ts';

/**
 * TikTok's rules for posts of `account` due at `dueAts` (creatorOptionsAt), read and checked at
 * submit as TikTok requires.
 */
async function creatorOptions(
  context: ScheduleContext,
  account: AccountRow,
  due: { immediate: boolean; dueAts: readonly Date[]; timeZone: string },
): Promise<DatedCreatorOptions | null> {
  const info = await askCreator(context.readCreatorInfo, account);
  return creatorOptionsAt(info, { ...due, now: context.now() });
}

/** The settings an edit asks for, checked as at submit: TikTok's options and disclosure rules. */
async function editedSettings(
  context: ScheduleContext,
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
  const account =
    row.account_id && (await context.deps.accounts.findForUser(userId, row.account_id));
  if (!account) throw wrongState(keys.accountDeleted, 'accountId');
  const creator = await creatorOptions(context, account, {
    immediate: false,
    dueAts: [edit.dueAt === undefined ? row.due_at : new Date(edit.dueAt)],
    timeZone: await capZone(context, userId, row.time_zone),
  });
  if (!inbox) checkUnaudited(context.deps.appAudited, settings.privacy_level, creator);
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

export function createPostEdits(context: ScheduleContext) {
  const { repository } = context.deps;
  return {
    /**
     * A new time for a pending post, or for a cancelled or failed one, which becomes pending again
     * (a failed one as a new TikTok post, like a retry).
     */
    async reschedule(userId: string, id: string, dueAt: Date): Promise<Post> {
      requireFuture(dueAt, context.now());
      const row = await requirePost(context, userId, id);
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
      const post = await postAfterChange(context, userId, id, changed, (status) =>
        status === 'pending' ? keys.notPending : keys.notReschedulable,
      );
      await context.wakeAll([{ id, dueAt }]);
      return post;
    },

    /** Caption, TikTok settings and time of a pending post; 409 (and why) once it is publishing. */
    async edit(userId: string, id: string, edit: EditPost): Promise<Post> {
      const row = await requirePost(context, userId, id);
      if (row.status !== 'pending') throw wrongState(lockedKey(row.status));
      const dueAt = edit.dueAt === undefined ? undefined : new Date(edit.dueAt);
      if (dueAt) requireFuture(dueAt, context.now());
      const changesSettings =
        edit.privacyLevel !== undefined ||
        edit.allowComment !== undefined ||
        edit.allowDuet !== undefined ||
        edit.allowStitch !== undefined;
      const settings = changesSettings
        ? await editedSettings(context, userId, row, edit)
        : undefined;
      const changed = await repository.editPending(
        userId,
        id,
        { title: edit.title, dueAt },
        settings,
      );
      const post = await postAfterChange(context, userId, id, changed, lockedKey);
      if (dueAt) await context.wakeAll([{ id, dueAt }]);
      return post;
    },
  };
}
