import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import '../schedules/db-types.ts';
import { createDbClock, type DbClock } from './db-clock.ts';
import { createPostLeases } from './post-leases.ts';
import { createRateLedger, type RateLedgerOptions } from './rate-ledger.ts';
import { createWakeQueries } from './wake-queries.ts';

/**
 * SQL for the publisher: the post's lease (post-leases.ts), the per-account rate ledger
 * (rate-ledger.ts) and the wake-ups owed (wake-queries.ts), over one reading of the database's
 * clock. Every write that moves a post is conditional on the lease its caller holds, so a worker
 * that lost its lease (it stalled, another took over) changes nothing.
 */
export function createPublishingRepository(db: Kysely<Database>, options: RateLedgerOptions = {}) {
  const clock = createDbClock();
  return {
    /** This process's bounds of the database's clock, from the readings of its statements. */
    clock: clock as Pick<DbClock, 'localWhen' | 'latestAt'>,
    ...createPostLeases(db, clock),
    ...createRateLedger(db, clock, options),
    ...createWakeQueries(db),
  };
}

export type PublishingRepository = ReturnType<typeof createPublishingRepository>;
