import type { Kysely, Selectable } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { createAccountPostQueries } from './account-post-queries.ts';
import './db-types.ts';
import type { PostTable } from './db-types.ts';
import { createPendingPostEdits } from './pending-post-edits.ts';
import { createPostStatusUpdates } from './post-status-updates.ts';
import { createPostViewQueries } from './post-view-queries.ts';
import { createScheduleInserts } from './schedule-inserts.ts';

export type PostRow = Selectable<PostTable>;

/**
 * SQL for schedules and the user-facing side of posts. Every query is scoped by user id. Its
 * parts: schedules stored (schedule-inserts.ts), posts as the API shows them
 * (post-view-queries.ts), status changes (post-status-updates.ts), edits of a pending post
 * (pending-post-edits.ts), and an account's posts counted (account-post-queries.ts).
 */
export function createScheduleRepository(db: Kysely<Database>) {
  return {
    ...createScheduleInserts(db),
    ...createPostViewQueries(db),
    ...createPostStatusUpdates(db),
    ...createPendingPostEdits(db),
    ...createAccountPostQueries(db),
  };
}

export type ScheduleRepository = ReturnType<typeof createScheduleRepository>;
