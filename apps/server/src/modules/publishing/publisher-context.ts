// The types the publisher's parts share, and the context each part receives: what the core was
// given (PublisherDeps) and what one process keeps (its departures, its runs' timings).
import type { Logger } from 'pino';
import { createWorkerProcess, type WorkerProcess } from '../../jobs/worker-process.ts';
import type { PlatformDriver } from '../../platforms/driver.ts';
import type { MediaStorage } from '../../storage/media-storage.ts';
import type { TokenService } from '../accounts/token-service.ts';
import type { Notify } from '../notifications/service.ts';
import type { DailyCapGuard } from './daily-cap.ts';
import { createDepartures, type Departures } from './departures.ts';
import type { PullUrls } from './pull-urls.ts';
import type { InitSlot } from './ledger-sql.ts';
import type { PublishRow } from './publish-row.ts';
import type { PublishingRepository } from './repository.ts';
import { createRunTimings, type RunTimings } from './run-timings.ts';

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
  /** Upper bound on any retry delay (tests shorten the platforms' one-minute windows; default none). */
  retryDelayCapMs?: number;
  /**
   * When to look for a published post's public id the first time (default a minute:
   * POST_ID_FIRST_CHECK_MS); the later checks double from it.
   */
  firstPostIdCheckMs?: number;
  /**
   * The daily cap: posts beyond it wait for the account's next day with room instead of
   * failing. Without it, a post the platform refuses for its cap fails with that reason.
   */
  dailyCap?: DailyCapGuard;
  /** Tells the post's owner (bell, email) it was published, failed or postponed. */
  notify?: Notify;
  /**
   * Signed links to the posts' media (pull-urls.ts): the platform may download the video from one
   * instead of the worker sending it. Without it, the worker sends it.
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

/** Where one run's time went between its start and the platform's answer to its start. */
export interface InitTimings {
  postId: string;
  /** The platform's id for the attempt (PlatformDriver: StartedAttempt.attemptId). */
  publishId: string;
  /**
   * The init slot's stamp (epoch ms) before its settle's own reading (at most that), to set
   * beside the moment the platform counted the start.
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
   * instant it leaves), init (until the platform's answer starts), answer (its body read), and
   * the driver's own checks (PlatformDriver.prepareStart's `lap`).
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

/**
 * The init slot a run holds (repository.reserveInit): `sent` once the request may have left, so
 * that a run that sent nothing gives its slot back.
 */
export interface HeldSlot {
  slot: InitSlot;
  sent: boolean;
}

/**
 * A run that started before its post's due time (PREPARE_LEAD_MS): the post stays pending until
 * the confirmation, which checks it is unchanged since the claim and due.
 */
export interface PreparedRun {
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

/** A post whose account still exists. */
export type AccountPublishRow = PublishRow & { account_id: string };

/** What every part of the publisher works with, built once per publisher. */
export interface PublisherContext {
  deps: PublisherDeps;
  repository: PublishingRepository;
  driver: PlatformDriver;
  tokens: TokenService;
  storage: MediaStorage;
  wake: PublisherDeps['wake'];
  logger: PublisherDeps['logger'];
  leaseMs: number;
  retryDelayCapMs: number;
  workerProcess: WorkerProcess;
  /** Where this process's confirmed starts wait for their instant, and leave in rank order. */
  departures: Departures;
  /** Where each run's time goes until the platform answers its start (InitTimings). */
  timings: RunTimings;
}

export function createPublisherContext(deps: PublisherDeps): PublisherContext {
  const { repository, driver, tokens, storage, wake, logger } = deps;
  return {
    deps,
    repository,
    driver,
    tokens,
    storage,
    wake,
    logger,
    leaseMs: deps.leaseMs ?? DEFAULT_LEASE_MS,
    retryDelayCapMs: deps.retryDelayCapMs ?? Number.POSITIVE_INFINITY,
    workerProcess: deps.workerProcess ?? createWorkerProcess(),
    departures: createDepartures(repository.clock),
    timings: createRunTimings(deps.onInitTimings, logger),
  };
}
