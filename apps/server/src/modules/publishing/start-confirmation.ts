// The last steps before a start leaves: a prepared run waits for its due time, then its rate
// slot is confirmed and its post marked as starting, in one statement (decision 039).
import { setTimeout as delay } from 'node:timers/promises';
import type {
  AccountPublishRow,
  HeldSlot,
  PreparedRun,
  PublisherContext,
} from './publisher-context.ts';
import { CONFIRM_LEAD_MS } from './run-leads.ts';

/** The lease was lost before the start was sent: nothing reached the platform, another worker owns the post. */
export class InitLeaseLostError extends Error {
  override name = 'InitLeaseLostError';
}

/** The start's reserved slot lapsed before the request could leave, and no other was free. */
export class InitSlotLapsedError extends Error {
  override name = 'InitSlotLapsedError';
  constructor(readonly freeAt: Date) {
    super('init slot lapsed');
  }
}

/**
 * Stamps the held slot as leaving now and marks the post's init as started, in one statement.
 * A prepared run's post is marked only if unchanged and due (a database clock still short of
 * the due time: the confirmation is sent again once it is due).
 */
export async function confirmAndMark(
  ctx: PublisherContext,
  post: AccountPublishRow,
  owner: string,
  held: HeldSlot,
  prepared: PreparedRun | null,
  signal: AbortSignal,
): Promise<{ dueAtMs: number | null }> {
  let relapsed = false;
  for (;;) {
    const startedAt = new Date();
    const confirmed = await ctx.repository.confirmAndMarkInit(
      held.slot,
      post.id,
      owner,
      startedAt,
      prepared?.seenUpdatedAt,
    );
    if (confirmed.stamp !== null) {
      held.slot = { ...held.slot, stamp: confirmed.stamp };
      if (confirmed.marked) return confirmed;
      if (confirmed.earlyMs === null) throw new InitLeaseLostError();
      await delay(Math.max(1, confirmed.earlyMs), undefined, { signal });
      continue;
    }
    // Lapsed (the run took minutes): nothing left to give back; another slot, or pace the post.
    held.sent = true;
    const again = relapsed ? null : await ctx.repository.reserveInit(post.account_id);
    if (again === null) throw new InitSlotLapsedError(new Date(Date.now() + 1_000));
    if ('freeAt' in again) throw new InitSlotLapsedError(again.freeAt);
    relapsed = true;
    held.sent = false;
    held.slot = again.slot;
  }
}

/** Waits until the local instant `at` (performance.now()), a prepared run's place let go. */
async function idleUntil(at: number, prepared: PreparedRun | null, signal?: AbortSignal) {
  const waitMs = Math.ceil(at - performance.now());
  if (waitMs <= 0) return;
  prepared?.pause?.idle();
  try {
    await delay(waitMs, undefined, signal && { signal });
  } finally {
    await prepared?.pause?.resume();
  }
}

/**
 * A prepared run waits here, the driver's checks done, until CONFIRM_LEAD_MS before its post is
 * due (or its slot frees): its place among the timer runs goes to others meanwhile, and the
 * heartbeat's abort (a cancel, a lost lease) ends the wait.
 */
export async function untilDue(
  ctx: PublisherContext,
  postId: string,
  prepared: PreparedRun | null,
  signal: AbortSignal,
): Promise<void> {
  if (prepared === null) return;
  await idleUntil(prepared.sendAt - CONFIRM_LEAD_MS, prepared, signal);
  ctx.timings.lap(postId, 'wait');
}
