// Which posts are owed a wake-up: soon (the wake-up timers), or overdue (the sweep).
import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { ms } from './sql-instants.ts';

/** Posts a wake-up is owed to: open ones, and completed ones whose public id is still awaited. */
const awaitsWake = sql<boolean>`(status in ('pending', 'publishing') or post_id_checks is not null)`;

export function createWakeQueries(db: Kysely<Database>) {
  return {
    /** Open posts whose wake-up falls within `horizonMs` (or is past): for the wake-up timers. */
    wakingWithin(horizonMs: number) {
      return db
        .selectFrom('posts')
        .select(['id', 'wake_at', 'status', 'due_at'])
        .where(awaitsWake)
        .where('wake_at', '<=', sql<Date>`clock_timestamp() + ${ms(horizonMs)}`)
        .execute();
    },

    /**
     * Posts whose wake-up should have happened more than `graceMs` ago (and whose lease, if any,
     * has expired or will): their job was lost. Marks them as re-queued and returns when to wake
     * each (after any lease still held by a worker that may be dead).
     */
    async takeForgotten(graceMs: number, limit = 500): Promise<{ id: string; wakeAt: Date }[]> {
      const rows = await db
        .updateTable('posts')
        .set({
          wake_at: sql<Date>`greatest(clock_timestamp(), coalesce(lease_until, clock_timestamp()))`,
        })
        .where('id', 'in', (eb) =>
          eb
            .selectFrom('posts')
            .select('id')
            .where(awaitsWake)
            .where('wake_at', '<=', sql<Date>`clock_timestamp() - ${ms(graceMs)}`)
            .orderBy('wake_at')
            .limit(limit),
        )
        .returning(['id', 'wake_at'])
        .execute();
      return rows.map((row) => ({ id: row.id, wakeAt: row.wake_at }));
    },
  };
}
