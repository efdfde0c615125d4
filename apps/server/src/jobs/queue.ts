import { AsyncLocalStorage } from 'node:async_hooks';
import type PgBoss from 'pg-boss';
import type { Logger } from 'pino';
import type { z } from 'zod';
import { BOSS_SCHEMA } from './boss.ts';

/**
 * A job that failed this many times in a row is not tried again, and a row whose runs died this
 * many times in a row (unfinished_runs, migration 0011) is not run again: both are failed with a
 * reason the user can read. The one place this number lives.
 */
export const MAX_JOB_ATTEMPTS = 3;

/** How many jobs of one queue a worker process runs at once: a count, or pg-boss fetch loops. */
export type QueueConcurrency = number | { loops: number; batchSize: number };

/** One queue: its name, payload contract and retry policy. Declared once, used by sender and worker. */
export interface QueueSpec<TPayload> {
  name: string;
  /** Versioned contract (a `v` field): add a version rather than change a deployed one. */
  payload: z.ZodType<TPayload>;
  /** A job active longer than this belonged to a dead worker: pg-boss fails it (one attempt). */
  expireInSeconds: number;
  /** Pause before the next attempt of a failed job. */
  retryDelaySeconds: number;
  retryBackoff?: boolean;
  /** Log fields naming the domain row a job is about, e.g. `{ storyId }`. */
  describe?: (payload: TPayload) => Record<string, string>;
  /** Cron (UTC) for a periodic queue; pg-boss sends one job per tick to one worker. */
  cron?: string;
}

export interface JobRun {
  id: string;
  /** 1 for the first try. */
  attempt: number;
  /** Aborted when the job is abandoned (an uncaught error of its own): stop, touch nothing more. */
  signal: AbortSignal;
}

/**
 * How often a worker looks for jobs sent by another process (pg-boss's own default). A job sent in
 * this process wakes this process's workers of its queue at once (`notifyWorker`), so the embedded
 * server (one process) answers without delay while idling at ~14 fetches a second instead of ~55
 * with 0.5 s (issue 15: the fetches held up PGlite's only connection, and uploads with it). On
 * PostgreSQL with separate workers, a job from the web process starts within this interval.
 */
export const DEFAULT_POLLING_SECONDS = 2;

/** The workers this process runs, by pg-boss instance and queue: a local send wakes them. */
const localWorkers = new WeakMap<PgBoss, Map<string, string[]>>();

function wakeLocalWorkers(boss: PgBoss, queue: string): void {
  for (const id of localWorkers.get(boss)?.get(queue) ?? []) boss.notifyWorker(id);
}

export interface QueueHandler<TPayload> {
  concurrency: QueueConcurrency;
  /** Seconds between fetches of jobs sent by other processes (default DEFAULT_POLLING_SECONDS). */
  pollingIntervalSeconds?: number;
  /** Does the work; any throw or rejection fails this job only (retried up to MAX_JOB_ATTEMPTS). */
  run: (payload: TPayload, job: JobRun) => Promise<unknown>;
  /**
   * The job failed for the last time: record on its domain row why it stopped, so the user sees
   * a reason instead of a row that stays 'running' forever. Must not throw for a row that moved on.
   */
  giveUp?: (payload: TPayload, error: unknown) => Promise<void>;
}

export interface SendOptions {
  /** A date, or seconds from now. */
  startAfter?: Date | number;
  singletonKey?: string;
}

/** What the process-level guard needs to pin an uncaught error on the job that caused it. */
interface RunningJob {
  fields: Record<string, unknown>;
  abandon: (error: unknown) => void;
}

const runningJob = new AsyncLocalStorage<RunningJob>();

const QUEUE_NAME = /^[\w.-]+$/;

/** A PostgreSQL string literal (standard_conforming_strings, on since PostgreSQL 9.1). */
function literal(text: string): string {
  return `'${text.replaceAll("'", "''")}'`;
}

/**
 * pg-boss creates a queue with DDL: a table, foreign keys to its queue table and a partition
 * attached to its job table. Two processes doing that at once (a first deployment, a release that
 * adds a queue, several workers starting together) lock the same tables in opposite orders and
 * PostgreSQL rolls one back as a deadlock; the worker that lost exited at start-up. Here the
 * creation runs in one transaction that first takes pg-boss's own advisory lock (the one its
 * maintenance and migrations hold), so creators, and pg-boss itself, take turns. pg-boss's
 * `create_queue` is a no-op for a queue that exists, so the one that waited does nothing.
 */
async function createQueueInTurn(boss: PgBoss, name: string, data: Record<string, unknown>) {
  const existing = await boss.getQueue(name);
  if (existing) return;
  await boss.getDb().executeSql(
    `
    BEGIN;
    SET LOCAL lock_timeout = '30s';
    SELECT pg_advisory_xact_lock(
      ('x' || encode(sha224((current_database() || '.pgboss.${BOSS_SCHEMA}')::bytea), 'hex'))::bit(64)::bigint
    );
    SELECT ${BOSS_SCHEMA}.create_queue(${literal(name)}, ${literal(JSON.stringify(data))}::json);
    COMMIT;
  `,
    [],
  );
}

/**
 * Called by the process guard for an uncaught exception or unhandled rejection: when it came from
 * a job's own work (the async context says which), that job is failed and its fields returned for
 * the log; null when no job is to blame.
 */
export function abandonRunningJob(error: unknown): Record<string, unknown> | null {
  const job = runningJob.getStore();
  if (!job) return null;
  job.abandon(error);
  return job.fields;
}

/** A payload shown in a log line without flooding it (it is client-influenced in theory). */
function preview(data: unknown): string {
  let text: string;
  try {
    text = JSON.stringify(data) ?? String(data);
  } catch {
    text = String(data);
  }
  return text.length > 500 ? `${text.slice(0, 500)}…` : text;
}

function fetchLoops(concurrency: QueueConcurrency): number[] {
  if (typeof concurrency !== 'number') {
    return Array.from({ length: concurrency.loops }, () => concurrency.batchSize);
  }
  // pg-boss 10 finishes a whole batch before fetching again: up to 4 loops, the jobs spread over
  // them, keep a slow job from holding up many others while the total stays `concurrency`.
  const loops = Math.min(concurrency, 4);
  return Array.from(
    { length: loops },
    (_, loop) => Math.floor(concurrency / loops) + (loop < concurrency % loops ? 1 : 0),
  );
}

/** A job of a batch that threw (or was abandoned), with what it threw. */
interface JobFailure {
  jobId: string;
  error: unknown;
}

/** The error pg-boss records on the failed jobs of a batch (each is also logged on its own). */
function batchFailure(failures: JobFailure[]): Error {
  const messages = failures.map(({ error }) =>
    error instanceof Error ? error.message : String(error),
  );
  return new Error([...new Set(messages)].join('; '));
}

/** Runs one job of a batch: undefined when it succeeded, else why it failed. */
async function runJob<TPayload>(
  spec: QueueSpec<TPayload>,
  handler: QueueHandler<TPayload>,
  logger: Logger,
  job: PgBoss.JobWithMetadata<unknown>,
): Promise<JobFailure | undefined> {
  const attempt = job.retryCount + 1;
  const context = { queue: spec.name, jobId: job.id, attempt };
  const parsed = spec.payload.safeParse(job.data);
  if (!parsed.success) {
    // No retry can fix a payload: say so, and let pg-boss complete the job.
    logger.warn(
      { ...context, data: preview(job.data), issues: parsed.error.issues },
      'malformed job payload dropped',
    );
    return undefined;
  }
  const payload = parsed.data;
  const fields = { ...context, ...spec.describe?.(payload) };
  const controller = new AbortController();
  let abandon: (error: unknown) => void = () => undefined;
  const abandoned = new Promise<never>((_, reject) => {
    abandon = (error) => {
      controller.abort(error);
      reject(error instanceof Error ? error : new Error(String(error)));
    };
  });
  // The race below may have settled first; an abandon after that must not look unhandled.
  abandoned.catch(() => undefined);
  try {
    await Promise.race([
      runningJob.run({ fields, abandon }, () =>
        handler.run(payload, { id: job.id, attempt, signal: controller.signal }),
      ),
      abandoned,
    ]);
    return undefined;
  } catch (error) {
    controller.abort(error);
    if (attempt < MAX_JOB_ATTEMPTS) {
      logger.error({ ...fields, err: error }, 'job failed: it will be retried');
    } else {
      logger.error({ ...fields, err: error }, 'job failed for the last time: given up');
      try {
        await handler.giveUp?.(payload, error);
      } catch (recordError) {
        logger.error({ ...fields, err: recordError }, 'could not record why a job gave up');
      }
    }
    return { jobId: job.id, error };
  }
}

/**
 * Runs a fetched batch of `queue`, each job on its own; pg-boss completes the batch, or, when
 * some failed, fails what this leaves active. `workerId` is the fetch loop that got the batch.
 */
async function runBatch<TPayload>(
  boss: PgBoss,
  spec: QueueSpec<TPayload>,
  handler: QueueHandler<TPayload>,
  logger: Logger,
  jobs: PgBoss.JobWithMetadata<unknown>[],
  workerId: string | undefined,
): Promise<void> {
  const failures = (
    await Promise.all(
      jobs.map((job) =>
        runJob(spec, handler, logger, job).catch((error: unknown): JobFailure => {
          // Only a throw outside the handler lands here (e.g. `describe`): say so.
          logger.error({ queue: spec.name, jobId: job.id, err: error }, 'job failed');
          return { jobId: job.id, error };
        }),
      ),
    )
  ).filter((failure) => failure !== undefined);
  // pg-boss 10 waits the polling interval after a batch even when jobs remain (it calls
  // this only with jobs): a loop that found work looks again at once, so a backlog
  // drains at the pace of the work, and only an empty fetch waits. The batch's jobs stay
  // 'active' until pg-boss settles them below, so that fetch cannot take one again.
  if (workerId !== undefined) boss.notifyWorker(workerId);
  if (failures.length === 0) return; // pg-boss completes the batch
  // Fails the failed jobs only: the others are completed here first, then the throw
  // has pg-boss fail what is still active (retried up to MAX_JOB_ATTEMPTS). Failing a
  // job here instead would race pg-boss's own completion of the batch, which it sends
  // without waiting: a retried job fetched again in between was marked completed.
  const failed = new Set(failures.map((failure) => failure.jobId));
  const succeeded = jobs.filter((job) => !failed.has(job.id)).map((job) => job.id);
  if (succeeded.length > 0) await boss.complete(spec.name, succeeded);
  throw batchFailure(failures);
}

/** Starts the queue's fetch loops in this process, known to local sends (wakeLocalWorkers). */
async function startFetchLoops<TPayload>(
  boss: PgBoss,
  spec: QueueSpec<TPayload>,
  handler: QueueHandler<TPayload>,
  logger: Logger,
): Promise<void> {
  const byQueue = localWorkers.get(boss) ?? new Map<string, string[]>();
  localWorkers.set(boss, byQueue);
  for (const batchSize of fetchLoops(handler.concurrency)) {
    // Filled once pg-boss names the worker; its first batch can only arrive after that.
    const worker: { id?: string } = {};
    worker.id = await boss.work<unknown>(
      spec.name,
      {
        batchSize,
        includeMetadata: true,
        pollingIntervalSeconds: handler.pollingIntervalSeconds ?? DEFAULT_POLLING_SECONDS,
      },
      (jobs) => runBatch(boss, spec, handler, logger, jobs, worker.id),
    );
    byQueue.set(spec.name, [...(byQueue.get(spec.name) ?? []), worker.id]);
  }
}

/** The queue mechanism every pg-boss queue of Cadence goes through. */
export function defineQueue<TPayload>(spec: QueueSpec<TPayload>) {
  // Names are constants of the code; the check keeps them fit for the SQL that creates them.
  if (!QUEUE_NAME.test(spec.name)) throw new Error(`Invalid queue name: ${spec.name}`);
  const policy = {
    retryLimit: MAX_JOB_ATTEMPTS - 1,
    retryDelay: spec.retryDelaySeconds,
    retryBackoff: spec.retryBackoff ?? false,
    expireInSeconds: spec.expireInSeconds,
  };
  const created = new WeakMap<PgBoss, Promise<void>>();

  /** Creates the queue once per pg-boss instance (an API process may send before any worker ran). */
  function ensure(boss: PgBoss): Promise<void> {
    let ready = created.get(boss);
    if (!ready) {
      ready = createQueueInTurn(boss, spec.name, { policy: 'standard', ...policy });
      void ready.catch(() => created.delete(boss));
      created.set(boss, ready);
    }
    return ready;
  }

  return {
    name: spec.name,

    ensure,

    /** Queues one job; the payload is checked against the contract before it leaves. */
    async send(boss: PgBoss, payload: TPayload & object, options: SendOptions = {}): Promise<void> {
      spec.payload.parse(payload);
      await ensure(boss);
      // The policy goes with each job too: queues created by an older version keep older settings.
      await boss.send(spec.name, payload, {
        ...policy,
        ...(options.startAfter !== undefined && { startAfter: options.startAfter }),
        ...(options.singletonKey !== undefined && { singletonKey: options.singletonKey }),
      });
      const { startAfter } = options;
      const dueNow =
        startAfter === undefined ||
        (typeof startAfter === 'number' ? startAfter <= 0 : startAfter.getTime() <= Date.now());
      if (dueNow) {
        wakeLocalWorkers(boss, spec.name);
      }
    },

    /** Registers the handler in this process (and the cron schedule of a periodic queue). */
    async work(boss: PgBoss, logger: Logger, handler: QueueHandler<TPayload>): Promise<void> {
      await ensure(boss);
      if (spec.cron) await boss.schedule(spec.name, spec.cron, undefined, policy);
      await startFetchLoops(boss, spec, handler, logger);
    },
  };
}

export type Queue<TPayload> = ReturnType<typeof defineQueue<TPayload>>;
