import { sql, type Kysely, type Selectable } from 'kysely';
import type { Database } from '../../db/schema.ts';
import './export-db-types.ts';
import type { DataExportTable } from './export-db-types.ts';
import { noLiveJob } from '../../jobs/orphans.ts';
import { createExportArchiveQueries } from './export-archive-queries.ts';

export type DataExportRow = Selectable<DataExportTable>;

/** An export from its request to its archive being ready (or failed). */
function exportRunQueries(db: Kysely<Database>) {
  return {
    /** Inserts a pending export; undefined when one is already pending or running (one at a time). */
    async create(userId: string): Promise<DataExportRow | undefined> {
      return db
        .insertInto('data_exports')
        .values({ user_id: userId })
        .onConflict((conflict) =>
          conflict.column('user_id').where('status', 'in', ['pending', 'running']).doNothing(),
        )
        .returningAll()
        .executeTakeFirst();
    },

    latest(userId: string) {
      return db
        .selectFrom('data_exports')
        .selectAll()
        .where('user_id', '=', userId)
        .orderBy('created_at', 'desc')
        .limit(1)
        .executeTakeFirst();
    },

    find(id: string) {
      return db.selectFrom('data_exports').selectAll().where('id', '=', id).executeTakeFirst();
    },

    /** Takes a pending (or retried running) export for the job; undefined when it moved on. */
    claim(id: string) {
      return db
        .updateTable('data_exports')
        .set({ status: 'running', progress: 0, error: null })
        .where('id', '=', id)
        .where('status', 'in', ['pending', 'running'])
        .returningAll()
        .executeTakeFirst();
    },

    async setProgress(id: string, progress: number): Promise<void> {
      await db
        .updateTable('data_exports')
        .set({ progress })
        .where('id', '=', id)
        .where('status', '=', 'running')
        .execute();
    },

    async markReady(
      id: string,
      values: { storageKey: string; sizeBytes: number; expiresAt: Date },
    ): Promise<boolean> {
      const result = await db
        .updateTable('data_exports')
        .set({
          status: 'ready',
          progress: 100,
          storage_key: values.storageKey,
          size_bytes: values.sizeBytes,
          ready_at: sql<Date>`now()`,
          expires_at: values.expiresAt,
        })
        .where('id', '=', id)
        .where('status', '=', 'running')
        .executeTakeFirst();
      return result.numUpdatedRows > 0n;
    },

    /** Fails a pending or running export; returns its owner, or undefined when it had moved on. */
    async markFailed(id: string, error: string): Promise<string | undefined> {
      const row = await db
        .updateTable('data_exports')
        .set({ status: 'failed', error: error.slice(0, 500) })
        .where('id', '=', id)
        .where('status', 'in', ['pending', 'running'])
        .returning('user_id')
        .executeTakeFirst();
      return row?.user_id;
    },
  };
}

/** Exports nobody will finish, and archives replaced or past their time. */
function exportCleanupQueries(db: Kysely<Database>) {
  return {
    /**
     * Pending or running exports created before `createdBefore` that no live job of `queue` will
     * ever finish (jobs/orphans.ts). Each would hold its person's one-at-a-time slot forever.
     */
    orphaned(createdBefore: Date, queue: string) {
      return db
        .selectFrom('data_exports')
        .select('id')
        .where('status', 'in', ['pending', 'running'])
        .where('created_at', '<', createdBefore)
        .where(noLiveJob(queue, sql.ref('data_exports.id')))
        .execute();
    },

    /** Ready exports of the person other than `keepId` (a new archive replaces the old ones). */
    olderReady(userId: string, keepId: string) {
      return db
        .selectFrom('data_exports')
        .selectAll()
        .where('user_id', '=', userId)
        .where('id', '!=', keepId)
        .where('status', '=', 'ready')
        .execute();
    },

    /** Ready exports whose time is up. */
    expired(now: Date) {
      return db
        .selectFrom('data_exports')
        .selectAll()
        .where('status', '=', 'ready')
        .where('expires_at', '<=', now)
        .execute();
    },

    async markExpired(id: string): Promise<void> {
      await db
        .updateTable('data_exports')
        .set({ status: 'expired', storage_key: null })
        .where('id', '=', id)
        .execute();
    },
  };
}

export function createDataExportRepository(db: Kysely<Database>) {
  return {
    ...exportRunQueries(db),
    ...exportCleanupQueries(db),
    ...createExportArchiveQueries(db),
  };
}

export type DataExportRepository = ReturnType<typeof createDataExportRepository>;
