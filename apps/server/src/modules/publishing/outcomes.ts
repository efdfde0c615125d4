// How a run ends a post's step: woken later, failed with a reason, postponed to a day with room,
// or retried, each written only while the run's lease holds.
import type { PublishFailReason } from '@cadence/shared/publish-fail-reasons';
import { notificationCaption } from '@cadence/shared/schemas/notification';
import type { TranslationKey } from '@cadence/shared/translation-key';
import type { AttemptStatus, PublishPhase } from '../../platforms/driver.ts';
import type { AccountPublishRow, AdvanceOutcome, PublisherContext } from './publisher-context.ts';
import { INIT_OUTCOME_UNKNOWN, MAX_ATTEMPTS, reactToError } from './publish-state.ts';
import type { PublishRow } from './publish-row.ts';

/** Why Cadence postponed a post (translation keys, shown with it). */
export const postponeNotes = {
  /** The platform refused the post for the account's daily cap. */
  refusedByPlatform: 'schedules.notes.postponedDailyCap',
  /** Cadence's own count (TIKTOK_DAILY_POST_CAP) says today is full. */
  cadenceCap: 'schedules.notes.postponedCadenceCap',
} as const satisfies Record<string, TranslationKey>;

/** The caption a notification quotes to say which post it is about, when the post has one. */
export function captionOf(post: PublishRow): { caption?: string } {
  const caption = notificationCaption(post.title);
  return caption === undefined ? {} : { caption };
}

/** Releases the post with `changes`, to be woken again in `delayMs`; false when the lease was lost. */
export async function later(
  ctx: PublisherContext,
  post: PublishRow,
  owner: string,
  delayMs: number,
  changes = {},
): Promise<boolean> {
  const at = new Date(Date.now() + delayMs);
  const kept = await ctx.repository.update(
    post.id,
    owner,
    { ...changes, wake_at: at },
    { release: true },
  );
  if (kept) await ctx.wake(post.id, at);
  return kept;
}

/** `details` go to the log only: the error, or the platform's own words behind the reason. */
export async function fail(
  ctx: PublisherContext,
  post: PublishRow,
  owner: string,
  reason: PublishFailReason,
  details: Record<string, unknown> = {},
): Promise<AdvanceOutcome> {
  ctx.logger.warn({ ...details, postId: post.id, reason }, 'post failed');
  const kept = await ctx.repository.update(
    post.id,
    owner,
    { status: 'failed', fail_reason: reason },
    { release: true },
  );
  if (!kept) return 'lease_lost';
  // The lease makes this the one run that failed the post: its owner names the event.
  await ctx.deps.notify?.({
    userId: post.user_id,
    type: 'post_failed',
    dedupeKey: `post_failed:${post.id}:${owner}`,
    data: {
      postId: post.id,
      account: post.account_username,
      ...captionOf(post),
      failReason: reason,
    },
  });
  return 'failed';
}

/**
 * Today's cap is reached: the post goes back to pending at its time of day on the account's
 * next day with room, saying why (nothing was created at the platform). With no such day within
 * a year, or no guard, it fails with `reason` as before.
 */
export async function postpone(
  ctx: PublisherContext,
  post: AccountPublishRow,
  owner: string,
  note: TranslationKey,
  reason: PublishFailReason,
): Promise<AdvanceOutcome> {
  const { dailyCap, notify } = ctx.deps;
  const dueAt = dailyCap ? await dailyCap.nextDayWithRoom(post, new Date()) : null;
  if (dueAt === null) return fail(ctx, post, owner, reason);
  const kept = await ctx.repository.update(
    post.id,
    owner,
    {
      status: 'pending',
      due_at: dueAt,
      wake_at: dueAt,
      init_started_at: null,
      attempt: 0,
      note,
      // The time the user chose, kept across several postponements.
      postponed_from: post.postponed_from ?? post.due_at,
    },
    { release: true },
  );
  if (!kept) return 'lease_lost';
  ctx.logger.info({ postId: post.id, dueAt, note }, 'post postponed: daily cap reached');
  await ctx.wake(post.id, dueAt);
  await notify?.({
    userId: post.user_id,
    type: 'post_postponed',
    dedupeKey: `post_postponed:${post.id}:${owner}`,
    data: {
      postId: post.id,
      account: post.account_username,
      ...captionOf(post),
      dueAt: dueAt.toISOString(),
    },
  });
  return 'postponed';
}

/** The platform's status says the attempt failed: its reason (the platform's words logged). */
export function failedOnPlatform(
  ctx: PublisherContext,
  post: PublishRow,
  owner: string,
  status: Extract<AttemptStatus, { state: 'failed' }>,
): Promise<AdvanceOutcome> {
  return status.platformReason === null
    ? fail(ctx, post, owner, status.reason)
    : fail(ctx, post, owner, status.reason, { platformFailReason: status.platformReason });
}

/** Applies an error's reaction; in the init phase a retry returns the post to 'pending'. */
export async function react(
  ctx: PublisherContext,
  post: PublishRow,
  owner: string,
  error: unknown,
  phase: PublishPhase,
): Promise<AdvanceOutcome> {
  const reaction = reactToError(error, phase, post.attempt, ctx.driver.reactToError);
  switch (reaction.action) {
    case 'postpone':
      return post.account_id === null
        ? fail(ctx, post, owner, reaction.reason)
        : postpone(
            ctx,
            { ...post, account_id: post.account_id },
            owner,
            postponeNotes.refusedByPlatform,
            reaction.reason,
          );
    case 'outcome_unknown':
      ctx.logger.error({ postId: post.id, err: error }, 'video init outcome unknown: not retried');
      return fail(ctx, post, owner, INIT_OUTCOME_UNKNOWN);
    case 'fail':
      return fail(ctx, post, owner, reaction.reason, { err: error });
    case 'retry': {
      const countsAsAttempt = phase !== 'init' && !reaction.reason.startsWith('rate_limit');
      const attempts = post.attempt + (countsAsAttempt ? 1 : 0);
      if (attempts >= MAX_ATTEMPTS && phase !== 'poll') {
        return fail(ctx, post, owner, reaction.reason, { err: error });
      }
      ctx.logger.warn(
        { postId: post.id, phase, reason: reaction.reason, delayMs: reaction.delayMs },
        'publish step will be retried',
      );
      const changes =
        phase === 'init'
          ? { status: 'pending' as const, init_started_at: null }
          : { attempt: attempts };
      const delayMs = Math.min(reaction.delayMs, ctx.retryDelayCapMs);
      return (await later(ctx, post, owner, delayMs, changes)) ? 'retrying' : 'lease_lost';
    }
  }
}
