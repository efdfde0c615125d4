// Creating a schedule from a plan: the checks at submit, the times planned once the account is
// known, then the schedule and its posts stored in one transaction and the publisher woken.
import type { DatedCreatorOptions } from '@cadence/shared/schedule/creator-options';
import type { PlannedPost } from '@cadence/shared/schedule/planner';
import type {
  CreateScheduleRequest,
  Post,
  SpacedIntervalInput,
} from '@cadence/shared/schemas/schedule';
import { isUniqueViolation } from '../../db/pg-errors.ts';
import { AppError } from '../../lib/app-error.ts';
import type { RequestKey } from '../../lib/idempotency.ts';
import { askCreator, creatorOptionsAt } from './creator-rules.ts';
import { capZone } from './daily-cap-planning.ts';
import type { ScheduleKind } from './db-types.ts';
import { DraftGoneError } from './schedule-inserts.ts';
import type { AccountRow, ScheduleContext } from './service-context.ts';
import {
  checkVideos,
  requirePublishingAccount,
  requireVideos,
  submittedPrivacy,
} from './submit-checks.ts';

/** What every way of scheduling carries: the form without its timing. */
export type ScheduleContent = Pick<
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
export interface Timing {
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

/** Plans a schedule's times once its account is known (and whether TikTok refuses posts today). */
export type PlanPosts = (
  account: AccountRow,
  today: { todayRefused: boolean },
) => Promise<PlannedPost[]>;

/** A schedule checked and planned, ready to be stored. */
interface CheckedSchedule {
  account: AccountRow;
  content: ScheduleContent;
  timing: Timing;
  planned: PlannedPost[];
  creator: DatedCreatorOptions | null;
  privacyLevel: string | null;
}

/**
 * Creates a schedule: the account and videos checked, the times planned (`plan`, once the
 * account is known), TikTok's current rules applied, then the schedule and its posts stored
 * (and its draft deleted) in one transaction, and the publisher woken for each post.
 */
export async function schedulePosts(
  context: ScheduleContext,
  userId: string,
  content: ScheduleContent,
  timing: Timing,
  plan: PlanPosts,
  requestKey: RequestKey | null,
): Promise<ScheduleMade> {
  const { deps, now } = context;
  // The same request again gets what the first made, before any check that could now refuse it
  // (its draft is gone, its time has passed).
  const earlier = requestKey && (await madeBy(context, userId, requestKey));
  if (earlier) return earlier;
  const account = await requirePublishingAccount(deps.accounts, userId, content);
  const videos = await requireVideos(deps.media, userId, content.mediaIds);
  // TikTok's answer first: while it says the creator cannot post now, the queue starts tomorrow.
  const info = await askCreator(context.readCreatorInfo, account);
  const planned = await plan(account, { todayRefused: info.cannotPostReason !== null });
  const creator = creatorOptionsAt(info, {
    immediate: timing.kind === 'immediate',
    dueAts: planned.map((post) => post.dueAt),
    timeZone: await capZone(context, userId, timing.timeZone),
    now: now(),
  });
  const privacyLevel = submittedPrivacy(deps.appAudited, content, creator);
  checkVideos(videos, creator, content.posts);
  const checked = { account, content, timing, planned, creator, privacyLevel };
  return storeSchedule(context, userId, checked, requestKey);
}

/** Stores a checked schedule and wakes the publisher for its posts. */
async function storeSchedule(
  context: ScheduleContext,
  userId: string,
  checked: CheckedSchedule,
  requestKey: RequestKey | null,
): Promise<ScheduleMade> {
  const { deps, now } = context;
  const { account, content, timing, planned, creator, privacyLevel } = checked;
  const captions = new Map(content.posts.map((post) => [post.mediaId, post]));
  let inserted: { scheduleId: string; postIds: string[] };
  try {
    inserted = await deps.repository.insertSchedule(
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
    const twin =
      requestKey && isUniqueViolation(error) && (await madeBy(context, userId, requestKey));
    if (twin) return twin;
    throw error;
  }
  const { scheduleId, postIds } = inserted;
  await context.wakeAll(
    postIds.map((id, index) => ({ id, dueAt: planned[index]?.dueAt ?? now() })),
  );
  const rows = await deps.repository.postViewsByIds(userId, postIds);
  return { scheduleId, posts: rows.map(context.toPost), replayed: false };
}

/**
 * The schedule an earlier request with this key made, its posts as they are now; undefined when
 * there is none; 409 when that request asked something else (a key is one request's).
 */
async function madeBy(
  context: ScheduleContext,
  userId: string,
  requestKey: RequestKey,
): Promise<ScheduleMade | undefined> {
  const { repository } = context.deps;
  const schedule = await repository.findByRequestKey(userId, requestKey.key);
  if (!schedule) return undefined;
  if (schedule.request_fingerprint !== requestKey.fingerprint) {
    throw new AppError('conflict', 'This Idempotency-Key was used for another request');
  }
  const rows = await repository.postViewsOfSchedule(userId, schedule.id);
  return { scheduleId: schedule.id, posts: rows.map(context.toPost), replayed: true };
}
