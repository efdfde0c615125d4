// The start of a publish (TikTok's video init, YouTube's upload session, Instagram's container):
// the driver's checks, the wait for the due instant, the rate slot's confirmation, the request,
// and its answer recorded before anything else. From the moment the request may leave until the
// platform's id for the attempt is stored, a crash leaves the outcome unknown (never sent again).
import type { PublishFailReason } from '@cadence/shared/publish-fail-reasons';
import type { PreparedStart, StartedAttempt } from '../../platforms/driver.ts';
import type { Flight } from './departures.ts';
import { fail, later, postpone, postponeNotes, react } from './outcomes.ts';
import type {
  AccountPublishRow,
  AdvanceOutcome,
  HeldSlot,
  PreparedRun,
  PublisherContext,
} from './publisher-context.ts';
import { pollDelayMs } from './publish-state.ts';
import type { InitRecord, SettleAnswer, SettleItem } from './settle-batch.ts';
import {
  confirmAndMark,
  InitLeaseLostError,
  InitSlotLapsedError,
  untilDue,
} from './start-confirmation.ts';
import { upload } from './transfer.ts';

/** One start's state across its token call, its request and its answer. */
interface StartAttempt {
  post: AccountPublishRow;
  owner: string;
  signal: AbortSignal;
  held: HeldSlot;
  prepared: PreparedRun | null;
  /**
   * Set from the moment the request may leave until the platform answers it: an error meanwhile
   * may leave the start's outcome unknown. An error outside that span (the driver's checks, the
   * token refresh after a refused start) comes from no request still open at the platform.
   */
  leaving: boolean;
  /** The platform's latest answer to the start when it was an error: it created nothing. */
  refusal: unknown;
  /** The start was accepted, its slot not settled yet: when the answer arrived. */
  accepted: Pick<SettleItem, 'answeredByMs'> | undefined;
}

/**
 * The post's next step is its start: the daily cap and the stored media are checked first, then
 * the driver's checks and the start go with one token read.
 */
export async function startPublish(
  ctx: PublisherContext,
  post: AccountPublishRow,
  owner: string,
  signal: AbortSignal,
  held: HeldSlot,
  prepared: PreparedRun | null,
): Promise<AdvanceOutcome> {
  const { deps, driver, timings } = ctx;
  // Inbox drafts are not posts: the daily post cap does not count them (the platform's own
  // limits on pending drafts answer the start).
  const inbox = post.delivery === 'inbox';
  if (!inbox && deps.dailyCap && (await deps.dailyCap.reachedBefore(post, new Date()))) {
    return postpone(ctx, post, owner, postponeNotes.cadenceCap, driver.limits.dailyCapReason);
  }
  timings.lap(post.id, 'dailyCap');
  // Before the platform creates a post we could never send the media to.
  if ((await ctx.storage.stat(post.storage_key)) === null) {
    return fail(ctx, post, owner, 'media_missing');
  }
  timings.lap(post.id, 'storage');
  // The platform pulls the media from a signed link when there is one, or the worker sends it.
  const mediaUrl = deps.pullUrls ? deps.pullUrls.urlFor(post.id) : null;
  const attempt: StartAttempt = {
    ...{ post, owner, signal, held, prepared },
    ...{ leaving: false, refusal: null, accepted: undefined },
  };
  return sendStart(ctx, attempt, (token) =>
    driver.prepareStart(token, post, { mediaUrl, lap: (phase) => timings.lap(post.id, phase) }),
  );
}

/** The account's token as the claim read it: no query of its own between the claim and the start. */
function knownGrant(post: AccountPublishRow) {
  return post.account_status === undefined || post.account_status === null
    ? undefined
    : {
        status: post.account_status,
        access_token_enc: post.access_token_enc ?? null,
        refresh_token_enc: post.refresh_token_enc ?? null,
        access_token_expires_at: post.access_token_expires_at ?? null,
      };
}

/** Settles the held slot; a failure is logged, and the slot lapses (INIT_FLIGHT_MS). */
function settleQuietly(
  ctx: PublisherContext,
  attempt: StartAttempt,
  settleWith: Omit<SettleItem, 'slot'>,
): Promise<SettleAnswer | undefined> {
  return ctx.repository.settleInit(attempt.held.slot, settleWith).catch((error: unknown) => {
    ctx.logger.warn({ err: error, postId: attempt.post.id }, 'init slot not settled: it lapses');
    return undefined;
  });
}

/**
 * Sends the start, records the platform's id for it, then sends the media. `prepare` runs first
 * with the same token (the driver's checks): it says what to send, or why the post cannot go.
 */
async function sendStart(
  ctx: PublisherContext,
  attempt: StartAttempt,
  prepare: (token: string) => Promise<PreparedStart>,
): Promise<AdvanceOutcome> {
  const { post, owner } = attempt;
  let result: StartedAttempt | { refuse: PublishFailReason };
  try {
    result = await ctx.tokens.withAccessToken(
      post.account_id,
      (token) => prepareAndSend(ctx, attempt, prepare, token),
      knownGrant(post),
    );
  } catch (error) {
    return afterStartError(ctx, attempt, error);
  }
  if ('refuse' in result) return fail(ctx, post, owner, result.refuse);
  return recordStart(ctx, attempt, result);
}

/**
 * One try with one token: a 401 from the checks or the start is refreshed and retried by
 * withAccessToken, as any call's: this runs again with the new token, on the same held slot.
 */
async function prepareAndSend(
  ctx: PublisherContext,
  attempt: StartAttempt,
  prepare: (token: string) => Promise<PreparedStart>,
  token: string,
): Promise<StartedAttempt | { refuse: PublishFailReason }> {
  const { post, owner, held, prepared, signal } = attempt;
  ctx.timings.lap(post.id, 'token');
  attempt.leaving = false;
  const ready = await prepare(token);
  if ('refuse' in ready) return ready;
  // A prepared run: everything that may take time is done; only the confirmation (up to
  // CONFIRM_LEAD_MS early) and the start are left for the due instant.
  await untilDue(ctx, post.id, prepared, signal);
  attempt.leaving = true;
  // The slot counts from now (not from its reservation, maybe seconds ago under load), and
  // from here until the attempt's id is stored, a crash leaves the outcome unknown (never
  // started again). Marked once the token is in hand, right before the request leaves: a crash
  // while waiting for the token (a database read, maybe a refresh) sent nothing and must
  // not make the post 'init outcome unknown'.
  const { dueAtMs } = await confirmAndMark(ctx, post, owner, held, prepared, signal);
  held.sent = true;
  ctx.timings.lap(post.id, 'confirm');
  // Confirmed ahead: the request leaves once the database's clock reads the due time and
  // the slot's (Departures: at a due instant, the accounts' earliest starts first). Not cut
  // short by the signal: the post is marked as sending.
  const leaveAtMs = Math.max(dueAtMs ?? 0, prepared?.freesAtMs ?? 0);
  prepared?.pause?.idle();
  let flight: Flight;
  try {
    flight = await ctx.departures.until(leaveAtMs, held.slot.rank ?? 0);
  } finally {
    await prepared?.pause?.resume();
  }
  return sendOnce(ctx, attempt, { ready, token, flight, leaveAtMs });
}

/** The request itself, and what its answer (or its absence) means for the held slot. */
async function sendOnce(
  ctx: PublisherContext,
  attempt: StartAttempt,
  sending: {
    ready: Extract<PreparedStart, { send: unknown }>;
    token: string;
    flight: Flight;
    leaveAtMs: number;
  },
): Promise<StartedAttempt> {
  const { post, prepared } = attempt;
  let answer: 'accepted' | 'refused' | 'none' = 'accepted';
  /**
   * When the platform's answer started to arrive (its headers): the platform counted the request
   * before, and reading and checking the body (hundreds of answers at once in a burst) adds
   * nothing to what the stamp must cover.
   */
  let arrivedAt: number | undefined;
  try {
    if (prepared) {
      ctx.timings.lap(post.id, 'due');
      const timeline = ctx.timings.of(post.id);
      if (timeline) {
        const leftAt = ctx.repository.clock.localWhen(sending.leaveAtMs);
        timeline.sentLateMs = Math.max(0, performance.now() - leftAt);
      }
    }
    return await sending.ready.send(sending.token, {
      onAnswer: () => {
        arrivedAt ??= performance.now();
      },
    });
  } catch (error) {
    // No answer (timeout, connection lost): the request may still reach the platform later than
    // now, so its stamp stays INIT_FLIGHT_MS after the send instead of moving to now.
    answer = ctx.driver.wasAnswered(error) ? 'refused' : 'none';
    if (answer === 'refused') {
      attempt.refusal = error;
      attempt.leaving = false;
    }
    throw error;
  } finally {
    sending.flight.land();
    await noteAnswer(ctx, attempt, answer, arrivedAt ?? performance.now());
  }
}

/**
 * Answered: the platform counted the start, if at all, before `answeredAt`, and the slot's stamp
 * says when by the database's clock (the statement may wait for the pool behind other answers).
 * An acceptance settles with its attempt's id (recordStart). A refusal is settled now: its slot
 * has a new stamp, the one a retry on a refreshed token confirms again, and init_started_at is
 * cleared (nothing of this post is in flight).
 */
async function noteAnswer(
  ctx: PublisherContext,
  attempt: StartAttempt,
  answer: 'accepted' | 'refused' | 'none',
  answeredAt: number,
): Promise<void> {
  const { post, owner } = attempt;
  ctx.timings.lap(post.id, 'init', answeredAt);
  // Reading and checking the answer's body, until here.
  ctx.timings.lap(post.id, 'answer');
  if (answer === 'none') return;
  const arrivedByMs = ctx.repository.clock.latestAt(answeredAt);
  const timeline = ctx.timings.of(post.id);
  if (timeline) timeline.stampedAtMs = arrivedByMs;
  const arrival = { answeredByMs: arrivedByMs };
  if (answer === 'accepted') {
    attempt.accepted = arrival;
    return;
  }
  const settled = await settleQuietly(ctx, attempt, {
    ...arrival,
    refused: { postId: post.id, owner },
  });
  if (settled?.stamp != null) attempt.held.slot = { ...attempt.held.slot, stamp: settled.stamp };
}

/** What an error around the start means: paced, lost, reacted to as the start's, or not ours. */
async function afterStartError(
  ctx: PublisherContext,
  attempt: StartAttempt,
  error: unknown,
): Promise<AdvanceOutcome> {
  const { post, owner } = attempt;
  if (error instanceof InitLeaseLostError) return 'lease_lost';
  if (error instanceof InitSlotLapsedError) {
    // Nothing of this post is in flight: the request on the lapsed slot never left, and an
    // earlier one of this run (refused, its token refreshed) was answered.
    const delayMs = Math.max(0, error.freeAt.getTime() - Date.now());
    return (await later(ctx, post, owner, delayMs, { init_started_at: null }))
      ? 'paced'
      : 'lease_lost';
  }
  // The platform's refusal of the start, or an error while it may be in flight.
  if (attempt.leaving || error === attempt.refusal) return react(ctx, post, owner, error, 'init');
  // Nothing was sent, or what was sent was answered: the step reacts as to any error before
  // the start.
  throw error;
}

/** The accepted start: its id recorded with the slot's settle, then the media sent or pulled. */
async function recordStart(
  ctx: PublisherContext,
  attempt: StartAttempt,
  result: StartedAttempt,
): Promise<AdvanceOutcome> {
  const { post, owner, prepared } = attempt;
  // Logged once the run ends (advanceOnce), not amid a burst of starts.
  const timeline = ctx.timings.of(post.id);
  if (timeline) timeline.publishId = result.attemptId;
  if (result.upload === null) {
    // The platform pulls the media: nothing to send, it downloads it meanwhile.
    if (attempt.accepted) await settleQuietly(ctx, attempt, attempt.accepted);
    const pulled = {
      publish_id: result.attemptId,
      video_size: post.size_bytes,
      uploaded_bytes: post.size_bytes,
      poll_count: 0,
    };
    return (await later(ctx, post, owner, pollDelayMs(0), pulled)) ? 'waiting' : 'lease_lost';
  }
  const record: InitRecord = {
    postId: post.id,
    owner,
    publishId: result.attemptId,
    uploadUrl: result.upload.url,
    uploadUrlExpiresAt: result.upload.expiresAt,
    videoSize: post.size_bytes,
    chunkSize: result.upload.chunkSize,
    totalChunkCount: result.upload.totalChunkCount,
  };
  // The slot's settle and the attempt's id in one statement (batched with other answers'): a
  // failure leaves the post as a crash here would, its start's outcome unknown (never sent again).
  const settled = await ctx.repository.settleInit(attempt.held.slot, {
    ...attempt.accepted,
    record,
  });
  if (!settled.recorded) {
    ctx.logger.error(
      { postId: post.id, publishId: result.attemptId },
      'lease lost right after video init',
    );
    return 'lease_lost';
  }
  const progress = {
    publish_id: record.publishId,
    upload_url: record.uploadUrl,
    upload_url_expires_at: record.uploadUrlExpiresAt,
    video_size: record.videoSize,
    chunk_size: record.chunkSize,
    total_chunk_count: record.totalChunkCount,
    uploaded_bytes: 0,
  };
  // The upload waits for a quiet moment in this process's starts (Departures.quiet), its place
  // among the timer runs let go, then for a place behind the runs queued meanwhile; the
  // heartbeat keeps the lease.
  prepared?.pause?.idle();
  await ctx.departures.quiet();
  await prepared?.pause?.requeue();
  // The same lease guards the upload that follows: a lost lease stops it mid-chunk.
  return upload(ctx, { ...post, ...progress }, owner, false, attempt.signal);
}
