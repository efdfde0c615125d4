import type { PublishFailReason } from '@cadence/shared/publish-fail-reasons';
import { notificationCaption } from '@cadence/shared/schemas/notification';
import { setTimeout as delay } from 'node:timers/promises';
import type { Logger } from 'pino';
import { newLease, noLease } from '../../db/lease.ts';
import { MAX_JOB_ATTEMPTS } from '../../jobs/queue.ts';
import { createWorkerProcess, type WorkerProcess } from '../../jobs/worker-process.ts';
import { leaseLoss, startHeartbeat } from '../../lib/heartbeat.ts';
import type {
  AttemptStatus,
  PlatformDriver,
  PreparedStart,
  PublishPhase,
} from '../../platforms/driver.ts';
import type { MediaStorage } from '../../storage/media-storage.ts';
import type { TranslationKey } from '@cadence/shared/translation-key';
import type { TokenService } from '../accounts/token-service.ts';
import type { DailyCapGuard } from './daily-cap.ts';
import type { PullUrls } from './pull-urls.ts';
import {
  INIT_OUTCOME_UNKNOWN,
  MAX_ATTEMPTS,
  MAX_POLLS,
  nextStep,
  pollDelayMs,
  POST_ID_WAIT_MS,
  postIdCheckDelayMs,
  reactToError,
  resumeChunkIndex,
} from './publish-state.ts';
import type { Notify } from '../notifications/service.ts';
import { createDepartures, type Flight } from './departures.ts';
import {
  CONFIRM_LEAD_MS,
  PREPARE_LEAD_MS,
  type InitRecord,
  type InitSlot,
  type PublishingRepository,
  type PublishRow,
  type SettleItem,
} from './repository.ts';

/** The lease was lost before video init was sent: nothing reached TikTok, another worker owns the post. */
class InitLeaseLostError extends Error {
  override name = 'InitLeaseLostError';
}

/** The init's reserved slot lapsed before the request could leave, and no other was free. */
class InitSlotLapsedError extends Error {
  override name = 'InitSlotLapsedError';
  constructor(readonly freeAt: Date) {
    super('init slot lapsed');
  }
}

/**
 * The init slot a run holds (repository.reserveInit): `sent` once the request may have left, so
 * that a run that sent nothing gives its slot back.
 */
interface HeldSlot {
  slot: InitSlot;
  sent: boolean;
}

/**
 * A run that started before its post's due time (PREPARE_LEAD_MS): the post stays pending until
 * the confirmation, which checks it is unchanged since the claim and due.
 */
interface PreparedRun {
  /**
   * When the post is due, or its init slot frees if later, on this process's monotonic clock
   * (performance.now()), from the database's clock's bounds (DbClock): the confirmation goes
   * CONFIRM_LEAD_MS before. The init itself leaves by the database's clock (Departures).
   */
  sendAt: number;
  /**
   * When its init slot frees, on the database's clock (epoch ms; null: it is free): the init
   * leaves once the database's clock reads both this and the post's due time (Departures).
   */
  freesAtMs: number | null;
  /** `updated_at` as the claim read it (repository.confirmAndMarkInit). */
  seenUpdatedAt: string;
  pause: RunPause | undefined;
}

/**
 * How a run started by a wake-up timer lets its turn go while it only waits for the due time
 * (wake-timers.ts): `idle` frees its place among the timer runs, `resume` takes one back, before
 * any run that has not started (at the due instant, prepared posts go first).
 */
export interface RunPause {
  idle(): void;
  resume(): Promise<void>;
  /** Lets the place go and waits for one behind the runs already waiting (the upload). */
  requeue(): Promise<void>;
}

/** A post whose TikTok account still exists. */
type AccountPublishRow = PublishRow & { account_id: string };

/** The caption a notification quotes to say which post it is about, when the post has one. */
function captionOf(post: PublishRow): { caption?: string } {
  const caption = notificationCaption(post.title);
  return caption === undefined ? {} : { caption };
}

/** Short, because the heartbeat renews it every third: a dead worker's posts come back within seconds. */
const DEFAULT_LEASE_MS = 10_000;

export interface PublisherDeps {
  repository: PublishingRepository;
  /** Everything platform-specific: checks, the start, the media transfer, statuses, errors. */
  driver: PlatformDriver;
  tokens: TokenService;
  storage: MediaStorage;
  /**
   * Queue a wake-up for the post at `at` (a pg-boss job); `leadMs`: its run may start that much
   * earlier, to be prepared at `at` (a paced post whose init slot frees then).
   */
  wake: (postId: string, at: Date, leadMs?: number) => Promise<void>;
  logger: Pick<Logger, 'info' | 'warn' | 'error'> & Partial<Pick<Logger, 'debug'>>;
  /** How long a worker owns a post between heartbeats' renewals (default 10 s). */
  leaseMs?: number;
  /** Upper bound on any retry delay (tests shorten TikTok's one-minute windows; default none). */
  retryDelayCapMs?: number;
  /**
   * When to look for a published post's public id the first time (default a minute:
   * POST_ID_FIRST_CHECK_MS); the later checks double from it.
   */
  firstPostIdCheckMs?: number;
  /**
   * TikTok's daily cap: posts beyond it wait for the account's next day with room instead of
   * failing. Without it, a post TikTok refuses for its cap fails with that reason.
   */
  dailyCap?: DailyCapGuard;
  /** Tells the post's owner (bell, email) it was published, failed or postponed. */
  notify?: Notify;
  /**
   * PULL_FROM_URL (TIKTOK_PULL_FROM_URL_PREFIX): TikTok downloads the video from a signed link
   * instead of the worker uploading chunks. Without it, FILE_UPLOAD.
   */
  pullUrls?: PullUrls;
  /**
   * This process's registration (jobs/worker-process.ts): recorded on each claim, and how a post
   * that keeps dying together with others gets to run alone. Default: one not registered, whose
   * runs' deaths are all blamed on their posts.
   */
  workerProcess?: WorkerProcess;
  /**
   * Told, for each run that had its video init accepted, where the run's time went
   * (bench/publish-lateness.ts collects them; tests watch a run's phases). They are also logged
   * at debug ('video init timings'), for operators and for workers in other processes.
   */
  onInitTimings?: (timings: InitTimings) => void;
}

/** Where one run's time went between its start and TikTok's answer to its video init. */
export interface InitTimings {
  postId: string;
  /** TikTok's publish id. */
  publishId: string;
  /**
   * The init slot's stamp (epoch ms) before its settle's own reading (at most that), to set
   * beside the moment TikTok counted the init.
   */
  stampedAtMs?: number;
  /**
   * How long after the instant it waited for (its due time, its slot) the init left: this
   * process's event loop, busy with other runs, let it go that much later. Prepared runs only.
   */
  sentLateMs?: number;
  /** Its slot was reserved ahead: it frees a window after the account's earlier inits. */
  paced: boolean;
  /**
   * Whole milliseconds per phase: status, reserve, claim, dailyCap, storage, token, creatorInfo,
   * wait (a prepared run's, until its confirmation), confirm, due (from the confirmation to the
   * instant it leaves), init (until TikTok's answer starts), answer (its body read).
   */
  phases: Record<string, number>;
}

/** The outcome of one `advance` call, for logs and tests. */
export type AdvanceOutcome =
  | 'not_ready'
  | 'busy'
  | 'paced'
  | 'published'
  | 'waiting'
  | 'retrying'
  | 'failed'
  | 'lease_lost'
  | 'postponed'
  /** Not run here now: it must run alone and others run here, or another runs alone here. */
  | 'deferred'
  /** Late public post ids (a completed post): found, asked again later, or no longer awaited. */
  | 'post_id_found'
  | 'post_id_pending'
  | 'post_id_given_up'
  /**
   * A prepared run whose post was edited, rescheduled, cancelled or stopped before its due time:
   * nothing was sent, and a post still pending is woken again at its time.
   */
  | 'changed';

/** Why Cadence postponed a post (translation keys, shown with it). */
export const postponeNotes = {
  /** The platform refused the post for the account's daily cap. */
  refusedByPlatform: 'schedules.notes.postponedDailyCap',
  /** Cadence's own count (TIKTOK_DAILY_POST_CAP) says today is full. */
  cadenceCap: 'schedules.notes.postponedCadenceCap',
} as const satisfies Record<string, TranslationKey>;

/**
 * The crash-safe publisher. Every call to `advance` takes a lease on the post, does the next step
 * its row says (init → upload → poll), records progress before moving on, and hands the post to
 * a later wake-up. Progress lives in the row, never in memory: any worker can continue any post.
 */
/** The longest a quarantined post (see `quarantine`) waits between two status checks. */
const QUARANTINE_CAP_MS = 6 * 60 * 60 * 1000;

export function createPublisher(deps: PublisherDeps) {
  const { repository, driver, tokens, storage, wake, logger } = deps;
  const leaseMs = deps.leaseMs ?? DEFAULT_LEASE_MS;
  const retryDelayCapMs = deps.retryDelayCapMs ?? Number.POSITIVE_INFINITY;
  const workerProcess = deps.workerProcess ?? createWorkerProcess();
  /** Where this process's confirmed inits wait for their instant, and leave in rank order. */
  const departures = createDepartures(repository.clock);
  /**
   * Where a run's time goes between its start and TikTok's answer to the video init (InitTimings,
   * told to deps.onInitTimings): milliseconds per phase.
   */
  const timelines = new Map<
    string,
    {
      last: number;
      phases: Record<string, number>;
      stampedAtMs?: number;
      /**
       * How long after the instant it waited for (its due time, its slot) the init left: this
       * process's event loop, busy with other runs, let it go that much later.
       */
      sentLateMs?: number;
      /** Its slot was reserved ahead: it frees a window after the account's earlier inits. */
      paced?: boolean;
      /** TikTok's publish id, once the init was accepted. */
      publishId?: string;
    }
  >();
  /** Posts this process is advancing now. */
  const advancing = new Set<string>();
  const lap = (postId: string, phase: string, now = performance.now()) => {
    const timeline = timelines.get(postId);
    if (!timeline) return;
    timeline.phases[phase] = (timeline.phases[phase] ?? 0) + (now - timeline.last);
    timeline.last = now;
  };

  async function later(post: PublishRow, owner: string, delayMs: number, changes = {}) {
    const at = new Date(Date.now() + delayMs);
    const kept = await repository.update(
      post.id,
      owner,
      { ...changes, wake_at: at },
      { release: true },
    );
    if (kept) await wake(post.id, at);
    return kept;
  }

  /**
   * A post TikTok already has, whose runs keep dying: only TikTok can say whether it failed, and
   * calling it failed would invite a retry that posts it twice. Its next check backs off instead
   * (1, 2, 4… minutes, at most 6 h), keeping the run count (no release), so it can never become a
   * crash loop. The run woken after the wait makes the check; the first that lives through it
   * resets the count, one that dies is followed by a longer wait.
   */
  async function quarantine(post: PublishRow, owner: string): Promise<AdvanceOutcome> {
    const extraRuns = post.unfinished_runs - MAX_JOB_ATTEMPTS - 1;
    const delayMs = Math.min(60_000 * 2 ** Math.min(extraRuns, 16), QUARANTINE_CAP_MS);
    const at = new Date(Date.now() + delayMs);
    logger.warn(
      { postId: post.id, unfinishedRuns: post.unfinished_runs - 1, nextCheckAt: at },
      'post TikTok has keeps dying with its worker: next status check backs off',
    );
    const kept = await repository.update(post.id, owner, { wake_at: at, ...noLease });
    if (kept) await wake(post.id, at);
    return kept ? 'waiting' : 'lease_lost';
  }

  /**
   * The work stopped because no renewal was confirmed in time (a slow database or a starved
   * process), not because another worker took the post: when the lease is still ours, hand the
   * post back at once, as a run that ended rather than one that died. Without this, every such
   * stop on a loaded machine counted towards the poison-row limit and sent posts TikTok already
   * had into quarantine. The update is conditional on the owner, so a post taken over is untouched.
   */
  async function giveBackUnconfirmed(post: PublishRow, owner: string, signal: AbortSignal) {
    if (leaseLoss(signal) !== 'unconfirmed') return;
    try {
      if (await later(post, owner, 0)) {
        logger.warn({ postId: post.id }, 'lease not renewed in time: post handed back');
      }
    } catch (error) {
      logger.warn({ err: error, postId: post.id }, 'could not hand back a post after a slow lease');
    }
  }

  /** `details` go to the log only: the error, or TikTok's own words behind the reason. */
  async function fail(
    post: PublishRow,
    owner: string,
    reason: PublishFailReason,
    details: Record<string, unknown> = {},
  ): Promise<AdvanceOutcome> {
    logger.warn({ ...details, postId: post.id, reason }, 'post failed');
    const kept = await repository.update(
      post.id,
      owner,
      { status: 'failed', fail_reason: reason },
      { release: true },
    );
    if (!kept) return 'lease_lost';
    // The lease makes this the one run that failed the post: its owner names the event.
    await deps.notify?.({
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
   * next day with room, saying why (nothing was created at TikTok). With no such day within a
   * year, or no guard, it fails with `reason` as before.
   */
  async function postpone(
    post: AccountPublishRow,
    owner: string,
    note: TranslationKey,
    reason: PublishFailReason,
  ): Promise<AdvanceOutcome> {
    const dueAt = deps.dailyCap ? await deps.dailyCap.nextDayWithRoom(post, new Date()) : null;
    if (dueAt === null) return fail(post, owner, reason);
    const kept = await repository.update(
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
    logger.info({ postId: post.id, dueAt, note }, 'post postponed: daily cap reached');
    await wake(post.id, dueAt);
    await deps.notify?.({
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
  function failedOnPlatform(
    post: PublishRow,
    owner: string,
    status: Extract<AttemptStatus, { state: 'failed' }>,
  ) {
    return status.platformReason === null
      ? fail(post, owner, status.reason)
      : fail(post, owner, status.reason, { platformFailReason: status.platformReason });
  }

  /** Applies an error's reaction; in the init phase a retry returns the post to 'pending'. */
  async function react(
    post: PublishRow,
    owner: string,
    error: unknown,
    phase: PublishPhase,
  ): Promise<AdvanceOutcome> {
    const reaction = reactToError(error, phase, post.attempt, driver.reactToError);
    switch (reaction.action) {
      case 'postpone':
        return post.account_id === null
          ? fail(post, owner, reaction.reason)
          : postpone(
              { ...post, account_id: post.account_id },
              owner,
              postponeNotes.refusedByPlatform,
              reaction.reason,
            );
      case 'outcome_unknown':
        logger.error({ postId: post.id, err: error }, 'video init outcome unknown: not retried');
        return fail(post, owner, INIT_OUTCOME_UNKNOWN);
      case 'fail':
        return fail(post, owner, reaction.reason, { err: error });
      case 'retry': {
        const countsAsAttempt = phase !== 'init' && !reaction.reason.startsWith('rate_limit');
        const attempts = post.attempt + (countsAsAttempt ? 1 : 0);
        if (attempts >= MAX_ATTEMPTS && phase !== 'poll') {
          return fail(post, owner, reaction.reason, { err: error });
        }
        logger.warn(
          { postId: post.id, phase, reason: reaction.reason, delayMs: reaction.delayMs },
          'publish step will be retried',
        );
        const changes =
          phase === 'init'
            ? { status: 'pending' as const, init_started_at: null }
            : { attempt: attempts };
        const delayMs = Math.min(reaction.delayMs, retryDelayCapMs);
        return (await later(post, owner, delayMs, changes)) ? 'retrying' : 'lease_lost';
      }
    }
  }

  async function init(
    post: AccountPublishRow,
    owner: string,
    signal: AbortSignal,
    held: HeldSlot,
    prepared: PreparedRun | null,
  ): Promise<AdvanceOutcome> {
    // Inbox drafts are not posts: the daily post cap does not count them (the platform's own
    // limits on pending drafts answer the start).
    const inbox = post.delivery === 'inbox';
    if (!inbox && deps.dailyCap && (await deps.dailyCap.reachedBefore(post, new Date()))) {
      return postpone(post, owner, postponeNotes.cadenceCap, driver.limits.dailyCapReason);
    }
    lap(post.id, 'dailyCap');
    // Before the platform creates a post we could never send the media to.
    if ((await storage.stat(post.storage_key)) === null) return fail(post, owner, 'media_missing');
    lap(post.id, 'storage');
    // The platform pulls the media from a signed link when there is one, or the worker sends it.
    const mediaUrl = deps.pullUrls ? deps.pullUrls.urlFor(post.id) : null;
    // The checks and the start with one token read: the platform's answer says how the post may go.
    return sendInit(post, owner, signal, held, prepared, (token) =>
      driver.prepareStart(token, post, { mediaUrl, lap: (phase) => lap(post.id, phase) }),
    );
  }

  /**
   * Stamps the held slot as leaving now and marks the post's init as started, in one statement.
   * A prepared run's post is marked only if unchanged and due (a database clock still short of
   * the due time: the confirmation is sent again once it is due).
   */
  async function confirmAndMark(
    post: AccountPublishRow,
    owner: string,
    held: HeldSlot,
    prepared: PreparedRun | null,
    signal: AbortSignal,
  ): Promise<{ dueAtMs: number | null }> {
    let relapsed = false;
    for (;;) {
      const startedAt = new Date();
      const confirmed = await repository.confirmAndMarkInit(
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
      const again = relapsed ? null : await repository.reserveInit(post.account_id);
      if (again === null) throw new InitSlotLapsedError(new Date(Date.now() + 1_000));
      if ('freeAt' in again) throw new InitSlotLapsedError(again.freeAt);
      relapsed = true;
      held.sent = false;
      held.slot = again.slot;
    }
  }

  /**
   * A prepared run waits here, creator_info in hand, until CONFIRM_LEAD_MS before its post is due
   * (or its slot frees): its place among the timer runs goes to others meanwhile, and the
   * heartbeat's abort (a cancel, a lost lease) ends the wait.
   */
  async function untilDue(postId: string, prepared: PreparedRun | null, signal: AbortSignal) {
    if (prepared === null) return;
    await idleUntil(prepared.sendAt - CONFIRM_LEAD_MS, prepared, signal);
    lap(postId, 'wait');
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
   * Sends a video init (direct or inbox), records its publish_id, then uploads. `prepare` runs
   * first with the same token (creator_info): it says what to send, or why the post cannot go.
   * From the moment the request may leave until publish_id is stored, a crash leaves the outcome
   * unknown.
   */
  async function sendInit(
    post: AccountPublishRow,
    owner: string,
    signal: AbortSignal,
    held: HeldSlot,
    prepared: PreparedRun | null,
    prepare: (token: string) => Promise<PreparedStart>,
  ): Promise<AdvanceOutcome> {
    // The claim read the account's token: no query of its own between the claim and the init.
    const known =
      post.account_status === undefined || post.account_status === null
        ? undefined
        : {
            status: post.account_status,
            access_token_enc: post.access_token_enc ?? null,
            refresh_token_enc: post.refresh_token_enc ?? null,
            access_token_expires_at: post.access_token_expires_at ?? null,
          };
    let result;
    /**
     * Set from the moment the request may leave until TikTok answers it: an error meanwhile may
     * leave the init's outcome unknown. An error outside that span (creator_info, the token
     * refresh after a refused init) comes from no request still open at TikTok.
     */
    let leaving = false;
    /** TikTok's latest answer to the init when it was an error: TikTok created nothing. */
    let refusal: unknown = null;
    /** The init was accepted, its slot not settled yet: when the answer arrived. */
    let accepted: Pick<SettleItem, 'answeredByMs'> | undefined;
    /** Settles the held slot; a failure is logged, and the slot lapses (INIT_FLIGHT_MS). */
    const settle = (settleWith: Omit<SettleItem, 'slot'>) =>
      repository.settleInit(held.slot, settleWith).catch((error: unknown) => {
        logger.warn({ err: error, postId: post.id }, 'init slot not settled: it lapses');
        return undefined;
      });
    try {
      result = await tokens.withAccessToken(
        post.account_id,
        async (token) => {
          lap(post.id, 'token');
          // A 401 from creator_info or the init is refreshed and retried by withAccessToken, as
          // any call's: this runs again with the new token, on the same held slot.
          leaving = false;
          const ready = await prepare(token);
          if ('refuse' in ready) return ready;
          // A prepared run: everything that may take time is done; only the confirmation (up to
          // CONFIRM_LEAD_MS early) and the init are left for the due instant.
          await untilDue(post.id, prepared, signal);
          leaving = true;
          // The slot counts from now (not from its reservation, maybe seconds ago under load), and
          // from here until publish_id is stored, a crash leaves the outcome unknown (never
          // re-init). Marked once the token is in hand, right before the request leaves: a crash
          // while waiting for the token (a database read, maybe a refresh) sent nothing and must
          // not make the post 'init outcome unknown'.
          const { dueAtMs } = await confirmAndMark(post, owner, held, prepared, signal);
          held.sent = true;
          lap(post.id, 'confirm');
          // Confirmed ahead: the request leaves once the database's clock reads the due time and
          // the slot's (Departures: at a due instant, the accounts' earliest inits first). Not cut
          // short by the signal: the post is marked as sending.
          const leaveAtMs = Math.max(dueAtMs ?? 0, prepared?.freesAtMs ?? 0);
          prepared?.pause?.idle();
          let flight: Flight;
          try {
            flight = await departures.until(leaveAtMs, held.slot.rank ?? 0);
          } finally {
            await prepared?.pause?.resume();
          }
          let answer: 'accepted' | 'refused' | 'none' = 'accepted';
          /**
           * When TikTok's answer started to arrive (its headers): TikTok counted the request
           * before, and reading and checking the body (hundreds of answers at once in a burst)
           * adds nothing to what the stamp must cover.
           */
          let arrivedAt: number | undefined;
          try {
            if (prepared) {
              lap(post.id, 'due');
              const timeline = timelines.get(post.id);
              if (timeline) {
                const leftAt = repository.clock.localWhen(leaveAtMs);
                timeline.sentLateMs = Math.max(0, performance.now() - leftAt);
              }
            }
            return await ready.send(token, {
              onAnswer: () => {
                arrivedAt ??= performance.now();
              },
            });
          } catch (error) {
            // No answer (timeout, connection lost): the request may still reach TikTok later than
            // now, so its stamp stays INIT_FLIGHT_MS after the send instead of moving to now.
            answer = driver.wasAnswered(error) ? 'refused' : 'none';
            if (answer === 'refused') {
              refusal = error;
              leaving = false;
            }
            throw error;
          } finally {
            flight.land();
            const answeredAt = arrivedAt ?? performance.now();
            lap(post.id, 'init', answeredAt);
            // Reading and checking the answer's body, until here.
            lap(post.id, 'answer');
            // Answered: TikTok counted it, if at all, before now, and the stamp says when by the
            // database's clock (the statement may wait for the pool behind other answers).
            if (answer !== 'none') {
              const arrivedByMs = repository.clock.latestAt(answeredAt);
              const timeline = timelines.get(post.id);
              if (timeline) timeline.stampedAtMs = arrivedByMs;
              const arrival = { answeredByMs: arrivedByMs };
              // An acceptance settles with its publish id, below. A refusal is settled now: its
              // slot has a new stamp, the one a retry on a refreshed token confirms again, and
              // init_started_at is cleared (nothing of this post is in flight).
              if (answer === 'accepted') accepted = arrival;
              else {
                const settled = await settle({ ...arrival, refused: { postId: post.id, owner } });
                if (settled?.stamp != null) held.slot = { ...held.slot, stamp: settled.stamp };
              }
            }
          }
        },
        known,
      );
    } catch (error) {
      if (error instanceof InitLeaseLostError) return 'lease_lost';
      if (error instanceof InitSlotLapsedError) {
        // Nothing of this post is in flight: the request on the lapsed slot never left, and an
        // earlier one of this run (refused, its token refreshed) was answered.
        const delayMs = Math.max(0, error.freeAt.getTime() - Date.now());
        return (await later(post, owner, delayMs, { init_started_at: null }))
          ? 'paced'
          : 'lease_lost';
      }
      // TikTok's refusal of the init, or an error while it may be in flight.
      if (leaving || error === refusal) return react(post, owner, error, 'init');
      // Nothing was sent, or what was sent was answered: step() reacts as to any error before
      // the init.
      throw error;
    }
    if ('refuse' in result) return fail(post, owner, result.refuse);
    // Logged once the run ends (advanceOnce), not amid a burst of inits.
    const timeline = timelines.get(post.id);
    if (timeline) timeline.publishId = result.attemptId;
    if (result.upload === null) {
      // PULL_FROM_URL: nothing to upload, TikTok downloads it (PROCESSING_DOWNLOAD) meanwhile.
      if (accepted) await settle(accepted);
      const pulled = {
        publish_id: result.attemptId,
        video_size: post.size_bytes,
        uploaded_bytes: post.size_bytes,
        poll_count: 0,
      };
      return (await later(post, owner, pollDelayMs(0), pulled)) ? 'waiting' : 'lease_lost';
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
    // The slot's settle and the publish id in one statement (batched with other answers'): a
    // failure leaves the post as a crash here would, its init's outcome unknown (never sent again).
    const settled = await repository.settleInit(held.slot, { ...accepted, record });
    if (!settled.recorded) {
      logger.error(
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
    // The upload waits for a quiet moment in this process's inits (Departures.quiet), its place
    // among the timer runs let go, then for a place behind the runs queued meanwhile; the
    // heartbeat keeps the lease.
    prepared?.pause?.idle();
    await departures.quiet();
    await prepared?.pause?.requeue();
    // The same lease guards the upload that follows: a lost lease stops it mid-chunk.
    return upload({ ...post, ...progress }, owner, false, signal);
  }

  async function upload(
    post: AccountPublishRow,
    owner: string,
    resumed: boolean,
    signal: AbortSignal,
  ): Promise<AdvanceOutcome> {
    const {
      publish_id: publishId,
      upload_url: uploadUrl,
      video_size: size,
      chunk_size: chunkSize,
      total_chunk_count: count,
    } = post;
    if (
      publishId === null ||
      uploadUrl === null ||
      size === null ||
      chunkSize === null ||
      count === null
    ) {
      return fail(post, owner, 'upload_state_missing');
    }
    let offset = post.uploaded_bytes;
    if (resumed) {
      // TikTok may hold more than we recorded (a crash between its 206 and our write): ask it.
      const status = await tokens.withAccessToken(post.account_id, (token) =>
        driver.fetchStatus(token, publishId),
      );
      if (status.state === 'failed') return failedOnPlatform(post, owner, status);
      if (status.state !== 'receiving') offset = size;
      else if (status.receivedBytes !== null) offset = status.receivedBytes;
    }
    const chunks = driver.chunks(size, chunkSize, count);
    const start = resumeChunkIndex(chunks, offset);
    if (start < 0) return fail(post, owner, 'upload_offset_mismatch');
    if (start < chunks.length && (post.upload_url_expires_at?.getTime() ?? 0) < Date.now()) {
      return fail(post, owner, 'upload_url_expired');
    }
    const last = chunks.at(-1);
    for (const chunk of chunks.slice(start)) {
      const body = await storage.createReadStream(post.storage_key, {
        start: chunk.first,
        end: chunk.last,
      });
      try {
        await driver.sendChunk(uploadUrl, {
          body,
          first: chunk.first,
          last: chunk.last,
          total: size,
          contentType: post.content_type,
          signal,
        });
      } catch (error) {
        body.destroy();
        if (signal?.aborted === true) return 'lease_lost';
        return react(post, owner, error, 'upload');
      }
      // The last chunk's progress is written with the first status check's wake-up, below.
      if (
        chunk !== last &&
        !(await repository.update(post.id, owner, { uploaded_bytes: chunk.last + 1 }))
      ) {
        return 'lease_lost';
      }
    }
    return (await later(post, owner, pollDelayMs(0), { uploaded_bytes: size, poll_count: 0 }))
      ? 'waiting'
      : 'lease_lost';
  }

  async function poll(post: AccountPublishRow, owner: string): Promise<AdvanceOutcome> {
    const publishId = post.publish_id;
    if (publishId === null) return fail(post, owner, 'upload_state_missing');
    const status = await tokens.withAccessToken(post.account_id, (token) =>
      driver.fetchStatus(token, publishId),
    );
    switch (status.state) {
      case 'published': {
        const publicId = status.publicId;
        // The platform may let the public id out later (moderation): the row says when to ask.
        const awaitId = publicId === null && driver.awaitsPublicId(post);
        const checkAt = new Date(Date.now() + idCheckDelayMs(0));
        const kept = await repository.update(
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
        logger.info({ postId: post.id, publishId, awaitId }, 'post published');
        await deps.notify?.({
          userId: post.user_id,
          type: 'post_published',
          dedupeKey: `post_published:${post.id}`,
          data: { postId: post.id, account: post.account_username, ...captionOf(post) },
        });
        if (awaitId) await wake(post.id, checkAt);
        return 'published';
      }
      case 'failed':
        return failedOnPlatform(post, owner, status);
      case 'in_inbox':
        // An inbox draft is done once it is in the creator's inbox: they finish it in the app.
        if (post.delivery === 'inbox') {
          const kept = await repository.update(
            post.id,
            owner,
            { status: 'completed', published_at: new Date(), fail_reason: null },
            { release: true },
          );
          if (!kept) return 'lease_lost';
          logger.info({ postId: post.id, publishId }, "draft sent to the creator's inbox");
          await deps.notify?.({
            userId: post.user_id,
            type: 'post_sent_to_inbox',
            dedupeKey: `post_sent_to_inbox:${post.id}`,
            data: { postId: post.id, account: post.account_username, ...captionOf(post) },
          });
          return 'published';
        }
        return pollAgain(post, owner, status);
      case 'unknown':
        // A status the platform added since: not a failure (the post may well be published).
        logger.warn(
          { postId: post.id, publishId, reportedStatus: status.reported },
          'unknown publish status from the platform: polling on',
        );
        return pollAgain(post, owner, status);
      case 'receiving':
      case 'processing':
        return pollAgain(post, owner, status);
    }
  }

  /** Still processing: the next status check, later each time, up to MAX_POLLS. */
  async function pollAgain(
    post: AccountPublishRow,
    owner: string,
    status: AttemptStatus,
  ): Promise<AdvanceOutcome> {
    if (post.poll_count >= MAX_POLLS) {
      return fail(post, owner, 'status_timeout', { lastStatus: status.reported });
    }
    const kept = await later(post, owner, pollDelayMs(post.poll_count + 1), {
      poll_count: post.poll_count + 1,
    });
    return kept ? 'waiting' : 'lease_lost';
  }

  function idCheckDelayMs(checks: number): number {
    return Math.min(postIdCheckDelayMs(checks, deps.firstPostIdCheckMs), retryDelayCapMs);
  }

  /**
   * One check for a completed post's late public id: the post is leased for that single status
   * fetch, and the row says when the next one is due, so a crash only delays it (the sweep wakes
   * it). A failed check is simply the next one's business; the checks stop once the id is there,
   * after 72 h, when TikTok says FAILED (taken down in moderation) or the account is deleted.
   */
  async function lookUpPostId(postId: string): Promise<AdvanceOutcome> {
    const lease = newLease(leaseMs);
    const post = await repository.claimPostIdCheck(postId, lease);
    if (!post) return 'busy';
    const owner = lease.owner;
    const stopLooking = async () =>
      (await repository.update(post.id, owner, { post_id_checks: null }, { release: true }))
        ? 'post_id_given_up'
        : 'lease_lost';
    const { account_id: accountId, publish_id: publishId } = post;
    if (accountId === null || publishId === null) return stopLooking();
    let status: AttemptStatus | null = null;
    try {
      status = await tokens.withAccessToken(accountId, (token) =>
        driver.fetchStatus(token, publishId),
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
    const at = new Date(Date.now() + idCheckDelayMs(checks));
    const kept = await repository.update(
      post.id,
      owner,
      { post_id_checks: checks, wake_at: at },
      { release: true },
    );
    if (kept) await wake(post.id, at);
    return kept ? 'post_id_pending' : 'lease_lost';
  }

  async function step(
    row: PublishRow,
    owner: string,
    reserved: HeldSlot | null,
    signal: AbortSignal,
    onSlot: (held: HeldSlot) => void,
    prepared: PreparedRun | null,
  ): Promise<AdvanceOutcome> {
    // Its account was deleted meanwhile (the post stays in the history): nowhere to publish it.
    if (row.account_id === null) return fail(row, owner, 'account_deleted');
    const post = { ...row, account_id: row.account_id };
    const phaseOf = nextStep(post);
    try {
      switch (phaseOf) {
        case 'init_outcome_unknown':
          return await fail(post, owner, INIT_OUTCOME_UNKNOWN);
        case 'init': {
          let held = reserved;
          if (held === null) {
            const reservation = await repository.reserveInit(post.account_id);
            if ('freeAt' in reservation) {
              const delayMs = Math.max(0, reservation.freeAt.getTime() - Date.now());
              return (await later(post, owner, delayMs)) ? 'paced' : 'lease_lost';
            }
            held = { slot: reservation.slot, sent: false };
            onSlot(held);
          }
          return await init(post, owner, signal, held, prepared);
        }
        case 'upload':
          return await upload(post, owner, true, signal);
        case 'poll':
          return await poll(post, owner);
      }
    } catch (error) {
      if (signal.aborted) return 'lease_lost';
      const phase: PublishPhase =
        phaseOf === 'init' ? 'prepare' : phaseOf === 'upload' ? 'upload' : 'poll';
      return react(post, owner, error, phase);
    }
  }

  /**
   * A prepared run that sent nothing and stopped (its post changed, was cancelled, or its lease
   * was in doubt): the lease it still holds is freed, and a post still pending is woken at its
   * time, maybe a new one (an edit of the caption alone announces nothing).
   */
  async function dropPrepared(postId: string, owner: string): Promise<AdvanceOutcome> {
    const left = await repository.releasePrepared(postId, owner);
    if (!left) return 'lease_lost';
    logger.info({ postId, status: left.status }, 'prepared post changed before its time: not sent');
    if (left.status === 'pending') await wake(postId, left.due_at);
    return 'changed';
  }

  /** What `findStatus` said of the post before its run. */
  type RunState = Pick<
    NonNullable<Awaited<ReturnType<PublishingRepository['findStatus']>>>,
    'status' | 'account_id' | 'last_run_unfinished' | 'woken' | 'due'
  >;

  /** An admitted run: takes the lease, then does the post's next step. */
  async function run(
    postId: string,
    current: RunState,
    jobSignal: AbortSignal | undefined,
    pause: RunPause | undefined,
  ): Promise<AdvanceOutcome> {
    const slots: HeldSlot[] = [];
    try {
      return await runHolding(postId, current, jobSignal, pause, (held) => slots.push(held));
    } finally {
      // A slot nothing was sent on (failed, postponed, taken by another) frees at once.
      for (const held of slots) {
        if (!held.sent) {
          await repository
            .releaseInit(held.slot)
            .catch((error: unknown) =>
              logger.warn({ err: error, postId }, 'init slot not released: it lapses'),
            );
        }
      }
    }
  }

  async function runHolding(
    postId: string,
    current: RunState,
    jobSignal: AbortSignal | undefined,
    pause: RunPause | undefined,
    onSlot: (held: HeldSlot) => void,
  ): Promise<AdvanceOutcome> {
    let reserved: HeldSlot | null = null;
    /** When the reserved slot frees, on the database's clock (epoch ms; null: it is free now). */
    let freesAtMs: number | null = null;
    if (current.status === 'pending' && current.account_id !== null) {
      // Reserve the init slot before taking the post, so a paced post simply stays pending. A
      // slot that frees within the lead is taken too: the run prepares and waits for it.
      const reservation = await repository.reserveInit(current.account_id, PREPARE_LEAD_MS);
      if ('freeAt' in reservation) {
        await wake(postId, reservation.freeAt, reservation.known ? PREPARE_LEAD_MS : 0);
        return 'paced';
      }
      freesAtMs = reservation.freesAtMs;
      lap(postId, 'reserve');
      const timeline = timelines.get(postId);
      if (timeline && freesAtMs !== null) timeline.paced = true;
      reserved = { slot: reservation.slot, sent: false };
      onSlot(reserved);
    }
    // Not due yet (within PREPARE_LEAD_MS), or its slot is not free yet: prepared now, sent at
    // the due instant (or the slot's). Local instants come from the process's bounds of the
    // database's clock (DbClock), which the reservation has just read.
    const slotAt = freesAtMs === null ? 0 : repository.clock.localWhen(freesAtMs);
    const early = current.status === 'pending' && (!current.due || slotAt > performance.now());
    // A prepared run's lease also covers its wait, so that no renewal falls at the due instant.
    const lease = newLease(early ? leaseMs + PREPARE_LEAD_MS : leaseMs);
    const owner = lease.owner;
    const post = await repository.claim(postId, lease, workerProcess.id, early);
    if (!post) return 'busy';
    const prepared: PreparedRun | null =
      early && post.seen_updated_at !== undefined
        ? {
            sendAt: Math.max(
              post.due_at_ms === undefined ? 0 : repository.clock.localWhen(post.due_at_ms),
              slotAt,
            ),
            freesAtMs,
            seenUpdatedAt: post.seen_updated_at,
            pause,
          }
        : null;
    lap(postId, 'claim');
    // Every earlier run on this post since the last release died alone in its process (or was
    // abandoned by a live one): another would take the worker down again. The claim counted this
    // run too; runs that died together with other posts are not counted (diedInCompany).
    if (post.unfinished_runs > MAX_JOB_ATTEMPTS) {
      if (post.publish_id === null) {
        return fail(post, owner, 'publisher_crashed', { unfinishedRuns: post.unfinished_runs - 1 });
      }
      // A post TikTok has: after a death, wait (quarantine); once a wait is served (the run
      // before this one was the quarantine's hand-off, and its wake-up time has come), its
      // status check runs.
      if (current.last_run_unfinished || !current.woken) return quarantine(post, owner);
    }
    // The heartbeat keeps the lease while a long chunk uploads; losing it stops the upload. An
    // abandoned job (see jobs/queue.ts) lets its lease lapse and stops touching TikTok.
    const intervalMs = Math.max(1_000, Math.floor(leaseMs / 3));
    const heartbeat = startHeartbeat({
      intervalMs,
      firstIntervalMs: intervalMs + (early ? PREPARE_LEAD_MS : 0),
      renew: () => repository.renewLease(postId, lease),
      lostAfterMs: lease.ms,
      since: lease.claimedAt,
      ...(jobSignal && { signal: jobSignal }),
      onError: (error) => logger.warn({ err: error, postId }, 'lease renewal failed'),
    });
    try {
      const outcome = await step(post, owner, reserved, heartbeat.signal, onSlot, prepared);
      if (outcome === 'lease_lost') await giveBackUnconfirmed(post, owner, heartbeat.signal);
      if (outcome === 'lease_lost' && early) return await dropPrepared(postId, owner);
      return outcome;
    } finally {
      await heartbeat.stop();
    }
  }

  return {
    /** Does the next step for a post (the handler of every publish job). Never throws for TikTok errors. */
    async advance(
      postId: string,
      jobSignal?: AbortSignal,
      pause?: RunPause,
    ): Promise<AdvanceOutcome> {
      // Its timer and its job fired together here: the run already going decides (as its lease
      // would), without a second round of queries. An abandoned job's run stops counting.
      if (advancing.has(postId)) return 'busy';
      advancing.add(postId);
      const forget = () => advancing.delete(postId);
      jobSignal?.addEventListener('abort', forget, { once: true });
      try {
        return await advanceOnce(postId, jobSignal, pause);
      } finally {
        jobSignal?.removeEventListener('abort', forget);
        forget();
      }
    },

    /** Re-queues posts whose wake-up is `graceMs` overdue (lost job, dead worker); returns how many. */
    sweep,
  };

  async function advanceOnce(
    postId: string,
    jobSignal?: AbortSignal,
    pause?: RunPause,
  ): Promise<AdvanceOutcome> {
    timelines.set(postId, { last: performance.now(), phases: {} });
    try {
      return await advanceTimed(postId, jobSignal, pause);
    } finally {
      const timeline = timelines.get(postId);
      timelines.delete(postId);
      if (timeline?.publishId !== undefined) {
        const timings: InitTimings = {
          postId,
          publishId: timeline.publishId,
          ...(timeline.stampedAtMs !== undefined && { stampedAtMs: timeline.stampedAtMs }),
          ...(timeline.sentLateMs !== undefined && {
            sentLateMs: Math.round(timeline.sentLateMs),
          }),
          paced: timeline.paced === true,
          phases: Object.fromEntries(
            Object.entries(timeline.phases).map(([phase, ms]) => [phase, Math.round(ms)]),
          ),
        };
        deps.onInitTimings?.(timings);
        logger.debug?.(timings, 'video init timings');
      }
    }
  }

  async function advanceTimed(
    postId: string,
    jobSignal?: AbortSignal,
    pause?: RunPause,
  ): Promise<AdvanceOutcome> {
    const current = await repository.findStatus(postId);
    lap(postId, 'status');
    if (current?.status === 'completed' && current.awaiting_post_id) {
      return lookUpPostId(postId);
    }
    if (!current || (current.status !== 'pending' && current.status !== 'publishing'))
      return 'not_ready';
    if (current.status === 'pending' && !current.due_soon) return 'not_ready';
    if (current.leased) return 'busy';
    // A post whose runs died together with others twice in a row runs alone in its process, so
    // that a death then is its own doing (a poison post), not a kill from outside.
    const alone = current.runs_alone;
    const admitted = alone ? await workerProcess.enterAlone() : workerProcess.enter();
    if (!admitted) {
      await wake(postId, new Date(Date.now() + (alone ? ALONE_RETRY_MS : DEFER_MS)));
      return 'deferred';
    }
    if (alone) logger.warn({ postId }, 'post died with others twice in a row: it runs alone');
    // An abandoned job's promise may never settle: its run ends with its signal.
    let left = false;
    const leave = () => {
      if (left) return;
      left = true;
      workerProcess.leave();
    };
    jobSignal?.addEventListener('abort', leave, { once: true });
    try {
      return await run(postId, current, jobSignal, pause);
    } finally {
      jobSignal?.removeEventListener('abort', leave);
      leave();
    }
  }

  /** Re-queues posts whose wake-up is `graceMs` overdue (lost job, dead worker); returns how many. */
  async function sweep(graceMs: number): Promise<number> {
    const forgotten = await repository.takeForgotten(graceMs);
    // A restarted worker may find hundreds of open posts: one send at a time took a minute under
    // load, while its posts waited. A few sends at once, bounded so the pool is not exhausted.
    let next = 0;
    const sender = async () => {
      for (let item = forgotten[next++]; item !== undefined; item = forgotten[next++]) {
        await wake(item.id, item.wakeAt);
      }
    };
    await Promise.all(Array.from({ length: SWEEP_SENDS_AT_ONCE }, sender));
    return forgotten.length;
  }
}

export type Publisher = ReturnType<typeof createPublisher>;

/** A post turned away while another runs alone here comes back this soon (maybe elsewhere). */
const DEFER_MS = 2_000;
/** A post waiting to run alone asks again this soon (here or in another process). */
const ALONE_RETRY_MS = 1_000;

/** Wake-ups the sweep sends in parallel: each is one INSERT, and pg-boss's pool holds 5 connections. */
const SWEEP_SENDS_AT_ONCE = 4;
