import { activeStoryStatuses } from '@cadence/shared/schemas/story';
import type { Insertable, Kysely, Selectable } from 'kysely';
import type { Lease } from '../../db/lease.ts';
import { leasedWorkTable } from '../../db/leased-work.ts';
import type { Database } from '../../db/schema.ts';
import './db-types.ts';
import type { StoryTable } from './db-types.ts';

export type StoryRow = Selectable<StoryTable>;

/**
 * Stories SQL. Every user-facing query is scoped by user id; the worker's by story id and lease:
 * its writes land only while it holds the render's lease (db/lease.ts).
 */
export function createStoryRepository(db: Kysely<Database>) {
  const stories = leasedWorkTable(db, 'stories', {
    limitLock: 'stories',
    active: activeStoryStatuses,
    // A lease is worth keeping only while the story renders: a cancel elsewhere stops the render.
    running: ['rendering'],
    handedBackAs: 'queued',
    list: { thenBy: 'position', limit: 200 },
  });
  return {
    // A user's list, one story, cancel; a render's lease, progress, completion, hand-back and
    // failure; the stories a restart queues again (db/leased-work.ts).
    ...stories.common,

    /**
     * Inserts the rows unless the user would then have more than `limit` active stories; null when
     * refused.
     */
    insertWithinLimit(
      userId: string,
      rows: Insertable<StoryTable>[],
      limit: number,
    ): Promise<StoryRow[] | null> {
      return stories.insertWithinLimit(userId, rows.length, limit, (trx) =>
        trx.insertInto('stories').values(rows).returningAll().execute(),
      );
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
      return stories.claim(id, lease, {
        from: ['queued'],
        orUnleasedIn: ['rendering'],
        as: 'rendering',
      });
    },
  };
}

export type StoryRepository = ReturnType<typeof createStoryRepository>;
