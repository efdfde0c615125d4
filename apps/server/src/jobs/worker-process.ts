// This process as the other workers see it (docs/decisions/033-kills-and-poison-posts.md): a row
// in worker_processes that it keeps alive every second, saying how many posts it is running. When
// the process dies (a kill from outside, or a post that takes it down), its row expires and its
// last beat tells the next claim of each post it held whether that post died alone in it or
// together with others. In memory, it admits runs: a post that keeps dying in company runs alone.
import { randomUUID } from 'node:crypto';
import { sql, type Generated, type Kysely } from 'kysely';
import type { Logger } from 'pino';
import { leaseEnd } from '../db/lease.ts';
import type { Database } from '../db/schema.ts';

export interface WorkerProcessTable {
  id: string;
  started_at: Generated<Date>;
  lease_until: Date;
  holding: Generated<number>;
}

declare module '../db/schema.ts' {
  interface Database {
    worker_processes: WorkerProcessTable;
  }
}

/**
 * How long a registration lasts after its last beat. Shorter than what is left of a post's lease
 * (10 s, renewed every 3.3 s) after that post's last renewal: a dead process is known dead before
 * any of its posts can be claimed again.
 */
export const PROCESS_LEASE_MS = 5_000;
const BEAT_MS = 1_000;
/** While a run waits to be alone, new runs are turned away this long (they go to other processes). */
const DRAIN_MS = 3_000;
/** Dead processes' rows are kept this long, for posts whose dead run is found late. */
const KEEP_DEAD_MS = 24 * 60 * 60 * 1000;

/** The runs this process admits, and its registration. */
export interface WorkerProcess {
  /** Recorded on each post it claims (posts.run_process). */
  readonly id: string;
  /** Admits a run among others; false while a run alone is awaited or going on here. */
  enter(): boolean;
  /**
   * Admits a run alone: true once no other run is going on here and the registry says this
   * process holds one post (so that its death, however soon, is blamed on that post). Until then
   * false, and for a few seconds new runs are turned away so that this process drains.
   */
  enterAlone(): Promise<boolean>;
  /** Ends a run admitted by enter or enterAlone. */
  leave(): void;
  /** Runs going on now. */
  running(): number;
}

/** The admission rules alone, with `record(holding)` writing the registration (or nothing). */
export function createWorkerProcess(
  record: (id: string, holding: number) => Promise<void> = async () => undefined,
  id: string = randomUUID(),
): WorkerProcess {
  let running = 0;
  let alone = false;
  let drainUntil = 0;
  return {
    id,
    enter() {
      if (alone || Date.now() < drainUntil) return false;
      running += 1;
      // Company from now on: said at once, so that a kill in the next second is not one post's.
      if (running === 2) record(id, running).catch(() => undefined);
      return true;
    },
    async enterAlone() {
      if (running > 0) {
        drainUntil = Date.now() + DRAIN_MS;
        return false;
      }
      running = 1;
      alone = true;
      try {
        await record(id, 1);
      } catch {
        running = 0;
        alone = false;
        return false;
      }
      drainUntil = 0;
      return true;
    },
    leave() {
      running = Math.max(0, running - 1);
      if (running === 0) alone = false;
    },
    running: () => running,
  };
}

/**
 * Registers this process in worker_processes and beats every second until `stop`. The beat also
 * forgets processes dead for a day.
 */
export async function registerWorkerProcess(
  db: Kysely<Database>,
  logger: Pick<Logger, 'warn'>,
): Promise<WorkerProcess & { stop(): Promise<void> }> {
  const record = async (id: string, holding: number) => {
    await db
      .insertInto('worker_processes')
      .values({ id, lease_until: leaseEnd(PROCESS_LEASE_MS), holding })
      .onConflict((oc) =>
        oc.column('id').doUpdateSet({ lease_until: leaseEnd(PROCESS_LEASE_MS), holding }),
      )
      .execute();
  };
  const worker = createWorkerProcess(record);
  await record(worker.id, 0);
  let beating = Promise.resolve();
  let beats = 0;
  const timer = setInterval(() => {
    beats += 1;
    const forget = beats % 600 === 0;
    beating = (async () => {
      await record(worker.id, worker.running());
      if (forget) {
        await db
          .deleteFrom('worker_processes')
          .where('lease_until', '<', sql<Date>`now() - ${`${KEEP_DEAD_MS} milliseconds`}::interval`)
          .execute();
      }
    })().catch((error: unknown) => logger.warn({ err: error }, 'worker process beat failed'));
  }, BEAT_MS);
  timer.unref();
  return {
    ...worker,
    async stop() {
      clearInterval(timer);
      await beating;
      // Stopped gracefully: its runs were let finish, nothing to attribute.
      await db
        .deleteFrom('worker_processes')
        .where('id', '=', worker.id)
        .execute()
        .catch(() => undefined);
    },
  };
}

/** The ids of the worker processes alive now (their registration not expired). */
export async function liveWorkerProcesses(db: Kysely<Database>): Promise<string[]> {
  const rows = await db
    .selectFrom('worker_processes')
    .select('id')
    .where('lease_until', '>', sql<Date>`now()`)
    .execute();
  return rows.map((row) => row.id);
}
