import type { StoryFailReason } from '@cadence/shared/schemas/story';
import { sql, type Insertable, type Kysely, type Selectable } from 'kysely';
import type { Database } from '../../db/schema.ts';
import './db-types.ts';
import type { StoryTable } from './db-types.ts';

export type StoryRow = Selectable<StoryTable>;

const active = ['queued', 'rendering'] as const;

/** Stories SQL. Every user-facing query is scoped by user id; the worker's by story id. */
export function createStoryRepository(db: Kysely<Database>) {
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
        .set({ status: 'cancelled', finished_at: new Date(), unfinished_runs: 0 })
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
     * Takes a story for rendering: a queued one, or a 'rendering' one whose worker stopped beating
     * before `staleBefore` (it died; the render restarts from scratch). Undefined otherwise, which
     * makes a duplicate or late job harmless.
     */
    claim(id: string, staleBefore: Date) {
      return db
        .updateTable('stories')
        .set({
          status: 'rendering',
          progress: 0,
          fail_reason: null,
          heartbeat_at: new Date(),
          unfinished_runs: sql<number>`unfinished_runs + 1`,
        })
        .where('id', '=', id)
        .where((eb) =>
          eb.or([
            eb('status', '=', 'queued'),
            eb.and([
              eb('status', '=', 'rendering'),
              eb.or([eb('heartbeat_at', 'is', null), eb('heartbeat_at', '<', staleBefore)]),
            ]),
          ]),
        )
        .returningAll()
        .executeTakeFirst();
    },

    /** Marks the render alive; false once the story is no longer rendering (cancelled, deleted). */
    async heartbeat(id: string): Promise<boolean> {
      const result = await db
        .updateTable('stories')
        .set({ heartbeat_at: new Date() })
        .where('id', '=', id)
        .where('status', '=', 'rendering')
        .executeTakeFirst();
      return result.numUpdatedRows > 0n;
    },

    async setProgress(id: string, progress: number): Promise<void> {
      await db
        .updateTable('stories')
        .set({ progress })
        .where('id', '=', id)
        .where('status', '=', 'rendering')
        .execute();
    },

    /** False when the story stopped rendering meanwhile (cancelled or deleted): the result is unwanted. */
    async complete(id: string, resultMediaId: string): Promise<boolean> {
      const result = await db
        .updateTable('stories')
        .set({
          status: 'completed',
          progress: 1,
          result_media_id: resultMediaId,
          finished_at: new Date(),
          unfinished_runs: 0,
        })
        .where('id', '=', id)
        .where('status', '=', 'rendering')
        .executeTakeFirst();
      return result.numUpdatedRows > 0n;
    },

    async fail(id: string, reason: StoryFailReason): Promise<void> {
      await db
        .updateTable('stories')
        .set({ status: 'failed', fail_reason: reason, finished_at: new Date(), unfinished_runs: 0 })
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
