import { sql, type Kysely } from 'kysely';
import type PgBoss from 'pg-boss';
import type { Logger } from 'pino';
import { z } from 'zod';
import type { Database } from '../../db/schema.ts';
import { defineQueue } from '../../jobs/queue.ts';

/**
 * The worker heartbeat: a job every minute that any worker process takes and completes. Its
 * completion time lives in pg-boss's job table, so a process with WORKER=off (which runs no job)
 * sees from the database whether workers elsewhere still poll. Its own fetch loop: busy render or
 * publish slots do not hide a live worker. One row a minute, as the publish sweep already costs.
 */
export const WORKER_HEARTBEAT_QUEUE = 'workers.heartbeat';
export const WORKER_HEARTBEAT_INTERVAL_MS = 60_000;
/** A worker is stalled when jobs have been due this long and no heartbeat came in that time. */
export const WORKER_STALL_AFTER_MS = 3 * WORKER_HEARTBEAT_INTERVAL_MS;

export const workerHeartbeatQueue = defineQueue({
  name: WORKER_HEARTBEAT_QUEUE,
  payload: z.unknown(),
  expireInSeconds: 60,
  retryDelaySeconds: 5,
  cron: '* * * * *',
});

/** Takes the heartbeat in this worker process; beats once at once, then with pg-boss's cron. */
export async function startWorkerHeartbeat(boss: PgBoss, logger: Logger): Promise<void> {
  await workerHeartbeatQueue.work(boss, logger, { concurrency: 1, run: async () => undefined });
  // The first cron tick may be a minute away: a worker that just started says so now.
  await workerHeartbeatQueue.send(boss, {});
}

export interface QueueDepth {
  name: string;
  /** Jobs whose start time has come and that no worker has taken yet. */
  due: number;
  /** Jobs a worker is running. */
  active: number;
}

export interface WorkerState {
  /** When a worker process last completed a heartbeat; null when none ever did (or long ago). */
  lastHeartbeatAt: Date | null;
  /** A heartbeat came within the stall window. */
  running: boolean;
  /** Jobs have been due longer than the stall window and no worker took a heartbeat meanwhile. */
  stalled: boolean;
  queues: QueueDepth[];
}

/**
 * Reads the workers' state from pg-boss's tables (schema `pgboss`, jobs/boss.ts), on the
 * database's clock, the one that stamped the jobs.
 */
export async function readWorkerState(
  db: Kysely<Database>,
  stallAfterMs: number = WORKER_STALL_AFTER_MS,
): Promise<WorkerState> {
  const depths = await sql<{
    name: string;
    due: string | number;
    active: string | number;
    oldest_due_ms: string | number | null;
  }>`
    select name,
      count(*) filter (where state in ('created', 'retry') and start_after <= now()) as due,
      count(*) filter (where state = 'active') as active,
      extract(epoch from now() - min(start_after)
        filter (where state in ('created', 'retry') and start_after <= now())) * 1000 as oldest_due_ms
    from pgboss.job
    where state in ('created', 'retry', 'active')
    group by name
    order by name`.execute(db);
  const beat = await sql<{ at: Date | string | null; age_ms: string | number | null }>`
    select max(completed_on) as at, extract(epoch from now() - max(completed_on)) * 1000 as age_ms
    from pgboss.job
    where name = ${WORKER_HEARTBEAT_QUEUE} and state = 'completed'`.execute(db);
  const row = beat.rows[0];
  const lastHeartbeatAt = row?.at == null ? null : new Date(row.at);
  const running = row?.age_ms != null && Number(row.age_ms) <= stallAfterMs;
  const overdue = depths.rows.some(
    (queue) => queue.oldest_due_ms != null && Number(queue.oldest_due_ms) > stallAfterMs,
  );
  return {
    lastHeartbeatAt,
    running,
    stalled: overdue && !running,
    queues: depths.rows.map((queue) => ({
      name: queue.name,
      due: Number(queue.due),
      active: Number(queue.active),
    })),
  };
}
