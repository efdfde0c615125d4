// After the media is in: the attempt's status until the platform says published or failed, and
// later the published post's public id, each check woken by the row's wake_at.
import { newLease } from '../../db/lease.ts';
import type { AttemptStatus } from '../../platforms/driver.ts';
import { captionOf, fail, failedOnPlatform, later } from './outcomes.ts';
import type { AccountPublishRow, AdvanceOutcome, PublisherContext } from './publisher-context.ts';
import { MAX_POLLS, pollDelayMs, POST_ID_WAIT_MS, postIdCheckDelayMs } from './publish-state.ts';

function idCheckDelayMs(ctx: PublisherContext, checks: number): number {
  return Math.min(postIdCheckDelayMs(checks, ctx.deps.firstPostIdCheckMs), ctx.retryDelayCapMs);
}

/** Still processing: the next status check, later each time, up to MAX_POLLS. */
async function pollAgain(
  ctx: PublisherContext,
  post: AccountPublishRow,
  owner: string,
  status: AttemptStatus,
): Promise<AdvanceOutcome> {
  if (post.poll_count >= MAX_POLLS) {
    return fail(ctx, post, owner, 'status_timeout', { lastStatus: status.reported });
  }
  const kept = await later(ctx, post, owner, pollDelayMs(post.poll_count + 1), {
    poll_count: post.poll_count + 1,
  });
  return kept ? 'waiting' : 'lease_lost';
}

/** Published: completed, its owner told, and its public id awaited when the platform gives it later. */
async function published(
  ctx: PublisherContext,
  post: AccountPublishRow,
  owner: string,
  publicId: string | null,
): Promise<AdvanceOutcome> {
  // The platform may let the public id out later (moderation): the row says when to ask.
  const awaitId = publicId === null && ctx.driver.awaitsPublicId(post);
  const checkAt = new Date(Date.now() + idCheckDelayMs(ctx, 0));
  const kept = await ctx.repository.update(
    post.id,
    owner,
    {
      status: 'completed',
      tiktok_post_id: publicId,
      published_at: new Date(),
      fail_reason: null,
      ...(awaitId && { post_id_checks: 0, wake_at: checkAt }),
    },
    { release: true },
  );
  if (!kept) return 'lease_lost';
  ctx.logger.info({ postId: post.id, publishId: post.publish_id, awaitId }, 'post published');
  await ctx.deps.notify?.({
    userId: post.user_id,
    type: 'post_published',
    dedupeKey: `post_published:${post.id}`,
    data: { postId: post.id, account: post.account_username, ...captionOf(post) },
  });
  if (awaitId) await ctx.wake(post.id, checkAt);
  return 'published';
}

/** An inbox draft is done once it is in the creator's inbox: they finish it in the app. */
async function deliveredToInbox(
  ctx: PublisherContext,
  post: AccountPublishRow,
  owner: string,
): Promise<AdvanceOutcome> {
  const kept = await ctx.repository.update(
    post.id,
    owner,
    { status: 'completed', published_at: new Date(), fail_reason: null },
    { release: true },
  );
  if (!kept) return 'lease_lost';
  ctx.logger.info(
    { postId: post.id, publishId: post.publish_id },
    "draft sent to the creator's inbox",
  );
  await ctx.deps.notify?.({
    userId: post.user_id,
    type: 'post_sent_to_inbox',
    dedupeKey: `post_sent_to_inbox:${post.id}`,
    data: { postId: post.id, account: post.account_username, ...captionOf(post) },
  });
  return 'published';
}

/** One status check of the post's attempt, and what it means for the post. */
export async function poll(
  ctx: PublisherContext,
  post: AccountPublishRow,
  owner: string,
): Promise<AdvanceOutcome> {
  const attemptId = post.publish_id;
  if (attemptId === null) return fail(ctx, post, owner, 'upload_state_missing');
  const status = await ctx.tokens.withAccessToken(post.account_id, (token) =>
    ctx.driver.fetchStatus(token, attemptId),
  );
  switch (status.state) {
    case 'published':
      return published(ctx, post, owner, status.publicId);
    case 'failed':
      return failedOnPlatform(ctx, post, owner, status);
    case 'in_inbox':
      return post.delivery === 'inbox'
        ? deliveredToInbox(ctx, post, owner)
        : pollAgain(ctx, post, owner, status);
    case 'unknown':
      // A status the platform added since: not a failure (the post may well be published).
      ctx.logger.warn(
        { postId: post.id, publishId: attemptId, reportedStatus: status.reported },
        'unknown publish status from the platform: polling on',
      );
      return pollAgain(ctx, post, owner, status);
    case 'receiving':
    case 'processing':
      return pollAgain(ctx, post, owner, status);
  }
}

/**
 * One check for a completed post's late public id: the post is leased for that single status
 * fetch, and the row says when the next one is due, so a crash only delays it (the sweep wakes
 * it). A failed check is simply the next one's business; the checks stop once the id is there,
 * after 72 h, when the platform says failed (taken down in moderation) or the account is deleted.
 */
export async function lookUpPostId(ctx: PublisherContext, postId: string): Promise<AdvanceOutcome> {
  const { repository, logger } = ctx;
  const lease = newLease(ctx.leaseMs);
  const post = await repository.claimPostIdCheck(postId, lease);
  if (!post) return 'busy';
  const owner = lease.owner;
  const stopLooking = async () =>
    (await repository.update(post.id, owner, { post_id_checks: null }, { release: true }))
      ? 'post_id_given_up'
      : 'lease_lost';
  const { account_id: accountId, publish_id: attemptId } = post;
  if (accountId === null || attemptId === null) return stopLooking();
  let status: AttemptStatus | null = null;
  try {
    status = await ctx.tokens.withAccessToken(accountId, (token) =>
      ctx.driver.fetchStatus(token, attemptId),
    );
  } catch (error) {
    logger.warn({ err: error, postId }, 'post id check failed: the next one tries again');
  }
  const found = status?.state === 'published' ? (status.publicId ?? undefined) : undefined;
  if (found !== undefined) {
    const kept = await repository.update(
      post.id,
      owner,
      { tiktok_post_id: found, post_id_checks: null },
      { release: true },
    );
    if (kept) logger.info({ postId, tiktokPostId: found }, 'public post id received');
    return kept ? 'post_id_found' : 'lease_lost';
  }
  const publishedAt = post.published_at?.getTime() ?? 0;
  if (status?.state === 'failed' || Date.now() - publishedAt >= POST_ID_WAIT_MS) {
    logger.warn({ postId, status: status?.reported }, 'no public post id: checks stop');
    return stopLooking();
  }
  const checks = (post.post_id_checks ?? 0) + 1;
  const at = new Date(Date.now() + idCheckDelayMs(ctx, checks));
  const kept = await repository.update(
    post.id,
    owner,
    { post_id_checks: checks, wake_at: at },
    { release: true },
  );
  if (kept) await ctx.wake(post.id, at);
  return kept ? 'post_id_pending' : 'lease_lost';
}
