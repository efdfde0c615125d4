// One run of a post: its start's rate slot reserved ahead, the claim (lease), the poison-post
// guard, the heartbeat, and the step the row says comes next (start → upload → status checks).
import { newLease, type Lease } from '../../db/lease.ts';
import { MAX_JOB_ATTEMPTS } from '../../jobs/queue.ts';
import { startHeartbeat } from '../../lib/heartbeat.ts';
import type { PublishPhase } from '../../platforms/driver.ts';
import { dropPrepared, giveBackUnconfirmed, quarantine } from './interrupted-runs.ts';
import { fail, later, react } from './outcomes.ts';
import type {
  AdvanceOutcome,
  HeldSlot,
  PreparedRun,
  PublisherContext,
  RunPause,
} from './publisher-context.ts';
import { INIT_OUTCOME_UNKNOWN, nextStep } from './publish-state.ts';
import type { PublishRow } from './publish-row.ts';
import type { PublishingRepository } from './repository.ts';
import { PREPARE_LEAD_MS } from './run-leads.ts';
import { startPublish } from './start-publish.ts';
import { poll } from './status-checks.ts';
import { upload } from './transfer.ts';

/** What `findStatus` said of the post before its run. */
export type RunState = Pick<
  NonNullable<Awaited<ReturnType<PublishingRepository['findStatus']>>>,
  'status' | 'account_id' | 'last_run_unfinished' | 'woken' | 'due'
>;

/** A run's own: its post's id, what was seen before it, and how it is stopped or paused. */
interface RunRequest {
  postId: string;
  current: RunState;
  jobSignal: AbortSignal | undefined;
  pause: RunPause | undefined;
  /** Told of each slot the run holds, to give back the ones nothing was sent on. */
  onSlot: (held: HeldSlot) => void;
}

/** The post's next step, the row deciding (a restart resumes correctly). */
async function step(
  ctx: PublisherContext,
  row: PublishRow,
  owner: string,
  reserved: HeldSlot | null,
  signal: AbortSignal,
  run: Pick<RunRequest, 'onSlot'> & { prepared: PreparedRun | null },
): Promise<AdvanceOutcome> {
  // Its account was deleted meanwhile (the post stays in the history): nowhere to publish it.
  if (row.account_id === null) return fail(ctx, row, owner, 'account_deleted');
  const post = { ...row, account_id: row.account_id };
  const phaseOf = nextStep(post);
  try {
    switch (phaseOf) {
      case 'init_outcome_unknown':
        return await fail(ctx, post, owner, INIT_OUTCOME_UNKNOWN);
      case 'init': {
        let held = reserved;
        if (held === null) {
          const reservation = await ctx.repository.reserveInit(post.account_id);
          if ('freeAt' in reservation) {
            const delayMs = Math.max(0, reservation.freeAt.getTime() - Date.now());
            return (await later(ctx, post, owner, delayMs)) ? 'paced' : 'lease_lost';
          }
          held = { slot: reservation.slot, sent: false };
          run.onSlot(held);
        }
        return await startPublish(ctx, post, owner, signal, held, run.prepared);
      }
      case 'upload':
        return await upload(ctx, post, owner, true, signal);
      case 'poll':
        return await poll(ctx, post, owner);
    }
  } catch (error) {
    if (signal.aborted) return 'lease_lost';
    const phase: PublishPhase =
      phaseOf === 'init' ? 'prepare' : phaseOf === 'upload' ? 'upload' : 'poll';
    return react(ctx, post, owner, error, phase);
  }
}

/**
 * Reserves the start's slot before taking a pending post, so a paced post simply stays pending.
 * A slot that frees within the lead is taken too: the run prepares and waits for it. Null: the
 * post is paced (woken when a slot frees); `reserved` null: nothing to reserve.
 */
async function reserveAhead(
  ctx: PublisherContext,
  request: RunRequest,
): Promise<{ reserved: HeldSlot | null; freesAtMs: number | null } | null> {
  const { postId, current } = request;
  if (current.status !== 'pending' || current.account_id === null) {
    return { reserved: null, freesAtMs: null };
  }
  const reservation = await ctx.repository.reserveInit(current.account_id, PREPARE_LEAD_MS);
  if ('freeAt' in reservation) {
    await ctx.wake(postId, reservation.freeAt, reservation.known ? PREPARE_LEAD_MS : 0);
    return null;
  }
  ctx.timings.lap(postId, 'reserve');
  const timeline = ctx.timings.of(postId);
  if (timeline && reservation.freesAtMs !== null) timeline.paced = true;
  const reserved = { slot: reservation.slot, sent: false };
  request.onSlot(reserved);
  return { reserved, freesAtMs: reservation.freesAtMs };
}

/**
 * Takes the post's lease. Not due yet (within PREPARE_LEAD_MS), or its slot not free yet: the
 * run is prepared now and sends at the due instant (or the slot's). Local instants come from the
 * process's bounds of the database's clock (DbClock), which the reservation has just read.
 */
async function claimRun(ctx: PublisherContext, request: RunRequest, freesAtMs: number | null) {
  const { repository } = ctx;
  const { postId, current } = request;
  const slotAt = freesAtMs === null ? 0 : repository.clock.localWhen(freesAtMs);
  const early = current.status === 'pending' && (!current.due || slotAt > performance.now());
  // A prepared run's lease also covers its wait, so that no renewal falls at the due instant.
  const lease = newLease(early ? ctx.leaseMs + PREPARE_LEAD_MS : ctx.leaseMs);
  const post = await repository.claim(postId, lease, ctx.workerProcess.id, early);
  if (!post) return null;
  const prepared: PreparedRun | null =
    early && post.seen_updated_at !== undefined
      ? {
          sendAt: Math.max(
            post.due_at_ms === undefined ? 0 : repository.clock.localWhen(post.due_at_ms),
            slotAt,
          ),
          freesAtMs,
          seenUpdatedAt: post.seen_updated_at,
          pause: request.pause,
        }
      : null;
  ctx.timings.lap(postId, 'claim');
  return { post, lease, early, prepared };
}

/**
 * Every earlier run on this post since the last release died alone in its process (or was
 * abandoned by a live one): another would take the worker down again. The claim counted this
 * run too; runs that died together with other posts are not counted (diedInCompany). Null: the
 * run goes on.
 */
function guardPoison(
  ctx: PublisherContext,
  post: PublishRow,
  owner: string,
  current: RunState,
): Promise<AdvanceOutcome> | null {
  if (post.unfinished_runs <= MAX_JOB_ATTEMPTS) return null;
  if (post.publish_id === null) {
    return fail(ctx, post, owner, 'publisher_crashed', {
      unfinishedRuns: post.unfinished_runs - 1,
    });
  }
  // A post the platform has: after a death, wait (quarantine); once a wait is served (the run
  // before this one was the quarantine's hand-off, and its wake-up time has come), its status
  // check runs.
  if (current.last_run_unfinished || !current.woken) return quarantine(ctx, post, owner);
  return null;
}

/** The claimed run's step under its heartbeat, which keeps the lease while a long chunk uploads. */
async function stepLeased(
  ctx: PublisherContext,
  request: RunRequest,
  claimed: { post: PublishRow; lease: Lease; early: boolean; prepared: PreparedRun | null },
  reserved: HeldSlot | null,
): Promise<AdvanceOutcome> {
  const { post, lease, early, prepared } = claimed;
  const { postId, jobSignal } = request;
  // Losing the lease stops the upload. An abandoned job (see jobs/queue.ts) lets its lease lapse
  // and stops touching the platform.
  const intervalMs = Math.max(1_000, Math.floor(ctx.leaseMs / 3));
  const heartbeat = startHeartbeat({
    intervalMs,
    firstIntervalMs: intervalMs + (early ? PREPARE_LEAD_MS : 0),
    renew: () => ctx.repository.renewLease(postId, lease),
    lostAfterMs: lease.ms,
    since: lease.claimedAt,
    ...(jobSignal && { signal: jobSignal }),
    onError: (error) => ctx.logger.warn({ err: error, postId }, 'lease renewal failed'),
  });
  const owner = lease.owner;
  try {
    const outcome = await step(ctx, post, owner, reserved, heartbeat.signal, {
      onSlot: request.onSlot,
      prepared,
    });
    if (outcome === 'lease_lost') await giveBackUnconfirmed(ctx, post, owner, heartbeat.signal);
    if (outcome === 'lease_lost' && early) return await dropPrepared(ctx, postId, owner);
    return outcome;
  } finally {
    await heartbeat.stop();
  }
}

async function runHolding(ctx: PublisherContext, request: RunRequest): Promise<AdvanceOutcome> {
  const ahead = await reserveAhead(ctx, request);
  if (ahead === null) return 'paced';
  const claimed = await claimRun(ctx, request, ahead.freesAtMs);
  if (!claimed) return 'busy';
  const poisoned = guardPoison(ctx, claimed.post, claimed.lease.owner, request.current);
  if (poisoned) return poisoned;
  return stepLeased(ctx, request, claimed, ahead.reserved);
}

/** An admitted run: takes the lease, then does the post's next step. */
export async function runPost(
  ctx: PublisherContext,
  postId: string,
  current: RunState,
  jobSignal: AbortSignal | undefined,
  pause: RunPause | undefined,
): Promise<AdvanceOutcome> {
  const slots: HeldSlot[] = [];
  try {
    return await runHolding(ctx, {
      postId,
      current,
      jobSignal,
      pause,
      onSlot: (held) => slots.push(held),
    });
  } finally {
    // A slot nothing was sent on (failed, postponed, taken by another) frees at once.
    for (const held of slots) {
      if (!held.sent) {
        await ctx.repository
          .releaseInit(held.slot)
          .catch((error: unknown) =>
            ctx.logger.warn({ err: error, postId }, 'init slot not released: it lapses'),
          );
      }
    }
  }
}
