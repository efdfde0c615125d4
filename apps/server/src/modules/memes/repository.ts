import {
  activeMemeStatuses,
  type MemeFailReason,
  type MemeLayout,
  type MemeStatus,
} from '@cadence/shared/schemas/meme';
import { sql, type Insertable, type Kysely, type Selectable } from 'kysely';
import { noLease, type Lease } from '../../db/lease.ts';
import { leasedWorkTable } from '../../db/leased-work.ts';
import type { Database } from '../../db/schema.ts';
import './db-types.ts';
import type { MemeAnalysisTable, StoredExtract } from './db-types.ts';

export type MemeAnalysisRow = Selectable<MemeAnalysisTable>;

/** What the analysis stage found, written when it hands over to the compilation. */
export interface AnalysisOutcome {
  durationSeconds: number;
  hasAudio: boolean;
  shorterThanTarget: boolean;
  extracts: StoredExtract[];
}

/**
 * Meme analyses SQL. Every user-facing query is scoped by user id; the worker's by analysis id
 * and lease: a job's writes land only while it holds the lease (db/lease.ts).
 */
export function createMemeRepository(db: Kysely<Database>) {
  const analyses = leasedWorkTable(db, 'meme_analyses', {
    limitLock: 'memes',
    active: activeMemeStatuses,
    // A stage holds the lease while it downloads, analyses or compiles.
    running: ['downloading', 'analysing', 'compiling'],
    list: { thenBy: 'id', limit: 100 },
  });
  const leased = (id: string, owner: string) =>
    db.updateTable('meme_analyses').where('id', '=', id).where(analyses.heldBy(owner));

  return {
    // A user's list, one analysis, cancel; a stage's lease, progress, completion, hand-back (it
    // keeps its status: that stage is queued again) and failure; the analyses a restart queues
    // again (db/leased-work.ts).
    ...analyses.common,

    /** Inserts the row unless the user already has `limit` active analyses; null when refused. */
    insertWithinLimit(
      row: Insertable<MemeAnalysisTable>,
      limit: number,
    ): Promise<MemeAnalysisRow | null> {
      return analyses.insertWithinLimit(row.user_id, 1, limit, (trx) =>
        trx.insertInto('meme_analyses').values(row).returningAll().executeTakeFirstOrThrow(),
      );
    },

    /**
     * Takes an analysis for its first stage under `lease`: a queued one, or one whose
     * download/analysis worker died, its lease run out (the stage starts again). Undefined
     * otherwise: a duplicate or late job does nothing.
     */
    claimAnalysis(id: string, lease: Lease) {
      return analyses.claim(id, lease, {
        from: ['queued'],
        orUnleasedIn: ['downloading', 'analysing'],
        as: sql<MemeStatus>`case when source_type = 'youtube' then 'downloading' else 'analysing' end`,
      });
    },

    /** Takes a compilation nobody is running (just handed over or re-requested, or orphaned). */
    claimCompilation(id: string, lease: Lease) {
      return analyses.claim(id, lease, { from: [], orUnleasedIn: ['compiling'], as: 'compiling' });
    },

    async setTitle(id: string, owner: string, title: string): Promise<void> {
      await leased(id, owner).set({ title }).execute();
    },

    /** Download done: the file is in storage, the analysis starts. False without the lease. */
    async downloaded(
      id: string,
      owner: string,
      fields: { sourceKey: string; title: string; durationSeconds: number | null },
    ): Promise<boolean> {
      const result = await leased(id, owner)
        .set({
          status: 'analysing',
          progress: 0,
          source_key: fields.sourceKey,
          title: fields.title,
          duration_seconds: fields.durationSeconds,
        })
        .executeTakeFirst();
      return result.numUpdatedRows > 0n;
    },

    /**
     * Analysis done: extracts stored and the lease released, so the compile job can claim the
     * row. False without the lease.
     */
    async analysed(id: string, owner: string, outcome: AnalysisOutcome): Promise<boolean> {
      const result = await leased(id, owner)
        .set({
          status: 'compiling',
          progress: 0,
          duration_seconds: outcome.durationSeconds,
          has_audio: outcome.hasAudio,
          shorter_than_target: outcome.shorterThanTarget,
          extracts: JSON.stringify(outcome.extracts),
          unfinished_runs: 0,
          ...noLease,
        })
        .executeTakeFirst();
      return result.numUpdatedRows > 0n;
    },

    /**
     * A stage's job gave up (it failed MAX_JOB_ATTEMPTS times): fails the row if it is still in
     * that stage, lease or not, so a job abandoned mid-way stops writing (its lease is gone).
     */
    failStage(id: string, statuses: readonly MemeStatus[], reason: MemeFailReason): Promise<void> {
      return analyses.failIn(id, statuses, reason);
    },

    /**
     * An analysed row that is not running goes back to compiling with the user's choice (any
     * running job loses its lease); undefined when it is still running or was never analysed.
     */
    requestRecompile(userId: string, id: string, extracts: StoredExtract[], layout: MemeLayout) {
      return db
        .updateTable('meme_analyses')
        .set({
          status: 'compiling',
          progress: 0,
          layout,
          extracts: JSON.stringify(extracts),
          fail_reason: null,
          finished_at: null,
          unfinished_runs: 0,
          ...noLease,
        })
        .where('user_id', '=', userId)
        .where('id', '=', id)
        .where('status', 'in', ['completed', 'failed', 'cancelled'])
        .where('extracts', 'is not', null)
        .returningAll()
        .executeTakeFirst();
    },
  };
}

export type MemeRepository = ReturnType<typeof createMemeRepository>;
