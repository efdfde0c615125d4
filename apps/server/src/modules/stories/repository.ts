import type { StoryFailReason } from '@cadence/shared/schemas/story';
import { sql, type Insertable, type Kysely, type Selectable } from 'kysely';
import {
  heldBy,
  holdLease,
  leaseFree,
  leaseStatements,
  noLease,
  type Lease,
} from '../../db/lease.ts';
import type { Database } from '../../db/schema.ts';
import './db-types.ts';
import type { StoryTable } from './db-types.ts';

export type StoryRow = Selectable<StoryTable>;

const active = ['queued', 'rendering'] as const;

/** What every way of failing a story writes: the reason, and the end of its run. */
const failedRow = (reason: StoryFailReason) =>
  ({
    status: 'failed',
    fail_reason: reason,
    finished_at: new Date(),
    unfinished_runs: 0,
    ...noLease,
  }) as const;

/**
 * Stories SQL. Every user-facing query is scoped by user id; the worker's by story id and lease:
 * its writes land only while it holds the render's lease (db/lease.ts).
 */
export function createStoryRepository(db: Kysely<Database>) {
  // A lease is worth keeping only while the story renders: a cancel elsewhere stops the render.
  const leases = leaseStatements(db, 'stories', 'id', { heldWhile: sql`status = 'rendering'` });
  const leased = (id: string, owner: string) =>
    db
      .updateTable('stories')
      .where('id', '=', id)
      .where('status', '=', 'rendering')
      .where(heldBy(owner));
  return {
    /**
     * Inserts the rows unless the user would then have more than `limit` active stories; null when
     * refused. A per-user advisory lock makes two simultaneous requests count one after the other.
     */
    insertWithinLimit(
      userId: string,
      rows: Insertable<StoryTable>[],
      limit: number,
    ): Promise<StoryRow[] | null> {
      return db.transaction().execute(async (trx) => {
        await sql`select pg_advisory_xact_lock(hashtext(${`stories:${userId}`}))`.execute(trx);
        const { count } = await trx
          .selectFrom('stories')
          .select((eb) => eb.fn.countAll<string>().as('count'))
          .where('user_id', '=', userId)
          .where('status', 'in', active)
          .executeTakeFirstOrThrow();
        if (Number(count) + rows.length > limit) return null;
        return trx.insertInto('stories').values(rows).returningAll().execute();
      });
    },

    listForUser(userId: string) {
      return db
        .selectFrom('stories')
        .selectAll()
        .where('user_id', '=', userId)
        .orderBy('created_at', 'desc')
        .orderBy('position', 'asc')
        .limit(200)
        .execute();
    },

    findForUser(userId: string, id: string) {
      return db
        .selectFrom('stories')
        .selectAll()
        .where('user_id', '=', userId)
        .where('id', '=', id)
        .executeTakeFirst();
    },

    /** Queued or rendering → cancelled; undefined when the story was not active. */
    cancel(userId: string, id: string) {
      return db
        .updateTable('stories')
        .set({ status: 'cancelled', finished_at: new Date(), unfinished_runs: 0, ...noLease })
        .where('user_id', '=', userId)
        .where('id', '=', id)
        .where('status', 'in', active)
        .returningAll()
        .executeTakeFirst();
    },

    delete(userId: string, id: string) {
      return db
        .deleteFrom('stories')
        .where('user_id', '=', userId)
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirst();
    },

    /**
     * Takes a story for rendering under `lease`: a queued one, or a 'rendering' one whose lease
     * ran out (its worker died; the render restarts from scratch). Undefined otherwise, which
     * makes a duplicate or late job harmless.
     */
    claim(id: string, lease: Lease) {
      return db
        .updateTable('stories')
        .set({
          status: 'rendering',
          progress: 0,
          fail_reason: null,
          ...holdLease(lease),
          unfinished_runs: sql<number>`unfinished_runs + 1`,
        })
        .where('id', '=', id)
        .where((eb) =>
          eb.or([
            eb('status', '=', 'queued'),
            eb.and([eb('status', '=', 'rendering'), leaseFree()]),
          ]),
        )
        .returningAll()
        .executeTakeFirst();
    },

    /** Extends the render's lease; false once it is lost (cancelled, deleted, taken over). */
    renewLease: (id: string, lease: Lease) => leases.renew(id, lease),

    async setProgress(id: string, owner: string, progress: number): Promise<void> {
      await leased(id, owner).set({ progress }).execute();
    },

    /** False when the render is no longer `owner`'s (cancelled, deleted, taken over): unwanted. */
    async complete(id: string, owner: string, resultMediaId: string): Promise<boolean> {
      const result = await leased(id, owner)
        .set({
          status: 'completed',
          progress: 1,
          result_media_id: resultMediaId,
          finished_at: new Date(),
          unfinished_runs: 0,
          ...noLease,
        })
        .executeTakeFirst();
      return result.numUpdatedRows > 0n;
    },

    /**
     * Hands a render `owner` may still hold back to the queue: its renewals went unconfirmed (a
     * slow database, a starved process), so it stopped without dying with its process, and this
     * run is not counted towards the crash limit. False when it was no longer `owner`'s.
     */
    async handBack(id: string, owner: string): Promise<boolean> {
      const result = await leased(id, owner)
        .set({
          status: 'queued',
          progress: 0,
          unfinished_runs: sql<number>`greatest(unfinished_runs - 1, 0)`,
          ...noLease,
        })
        .executeTakeFirst();
      return result.numUpdatedRows > 0n;
    },

    /** Fails the render `owner` holds; nothing when it is no longer its. */
    async fail(id: string, owner: string, reason: StoryFailReason): Promise<void> {
      await leased(id, owner).set(failedRow(reason)).execute();
    },

    /** Fails the story if still active, lease or not (a job that gave up, a queue that refused). */
    async failUnleased(id: string, reason: StoryFailReason): Promise<void> {
      await db
        .updateTable('stories')
        .set(failedRow(reason))
        .where('id', '=', id)
        .where('status', 'in', active)
        .execute();
    },

    /** Stories a job should exist for but may not: queued ones and unfinished renders. */
    findInterrupted() {
      return db
        .selectFrom('stories')
        .select(['id', 'status'])
        .where('status', 'in', active)
        .execute();
    },
  };
}

export type StoryRepository = ReturnType<typeof createStoryRepository>;
