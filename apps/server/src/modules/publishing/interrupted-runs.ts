// Runs that cannot go on as planned: a post whose runs keep dying (quarantine), a lease not
// renewed in time, and a prepared run whose post changed before its due time.
import { noLease } from '../../db/lease.ts';
import { MAX_JOB_ATTEMPTS } from '../../jobs/queue.ts';
import { leaseLoss } from '../../lib/heartbeat.ts';
import { later } from './outcomes.ts';
import type { AdvanceOutcome, PublisherContext } from './publisher-context.ts';
import type { PublishRow } from './publish-row.ts';

/** The longest a quarantined post (see `quarantine`) waits between two status checks. */
const QUARANTINE_CAP_MS = 6 * 60 * 60 * 1000;

/**
 * A post the platform already has, whose runs keep dying: only the platform can say whether it
 * failed, and calling it failed would invite a retry that posts it twice. Its next check backs
 * off instead (1, 2, 4… minutes, at most 6 h), keeping the run count (no release), so it can
 * never become a crash loop. The run woken after the wait makes the check; the first that lives
 * through it resets the count, one that dies is followed by a longer wait.
 */
export async function quarantine(
  ctx: PublisherContext,
  post: PublishRow,
  owner: string,
): Promise<AdvanceOutcome> {
  const extraRuns = post.unfinished_runs - MAX_JOB_ATTEMPTS - 1;
  const delayMs = Math.min(60_000 * 2 ** Math.min(extraRuns, 16), QUARANTINE_CAP_MS);
  const at = new Date(Date.now() + delayMs);
  ctx.logger.warn(
    { postId: post.id, unfinishedRuns: post.unfinished_runs - 1, nextCheckAt: at },
    // The chaos test and operators' alerts match these words.
    'post TikTok has keeps dying with its worker: next status check backs off',
  );
  const kept = await ctx.repository.update(post.id, owner, { wake_at: at, ...noLease });
  if (kept) await ctx.wake(post.id, at);
  return kept ? 'waiting' : 'lease_lost';
}

/**
 * The work stopped because no renewal was confirmed in time (a slow database or a starved
 * process), not because another worker took the post: when the lease is still ours, hand the
 * post back at once, as a run that ended rather than one that died. Without this, every such
 * stop on a loaded machine counted towards the poison-row limit and sent posts the platform
 * already had into quarantine. The update is conditional on the owner, so a post taken over is
 * untouched.
 */
export async function giveBackUnconfirmed(
  ctx: PublisherContext,
  post: PublishRow,
  owner: string,
  signal: AbortSignal,
): Promise<void> {
  if (leaseLoss(signal) !== 'unconfirmed') return;
  try {
    if (await later(ctx, post, owner, 0)) {
      ctx.logger.warn({ postId: post.id }, 'lease not renewed in time: post handed back');
    }
  } catch (error) {
    ctx.logger.warn(
      { err: error, postId: post.id },
      'could not hand back a post after a slow lease',
    );
  }
}

/**
 * A prepared run that sent nothing and stopped (its post changed, was cancelled, or its lease
 * was in doubt): the lease it still holds is freed, and a post still pending is woken at its
 * time, maybe a new one (an edit of the caption alone announces nothing).
 */
export async function dropPrepared(
  ctx: PublisherContext,
  postId: string,
  owner: string,
): Promise<AdvanceOutcome> {
  const left = await ctx.repository.releasePrepared(postId, owner);
  if (!left) return 'lease_lost';
  ctx.logger.info(
    { postId, status: left.status },
    'prepared post changed before its time: not sent',
  );
  if (left.status === 'pending') await ctx.wake(postId, left.due_at);
  return 'changed';
}
