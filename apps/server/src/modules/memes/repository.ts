import {
  activeMemeStatuses,
  type MemeFailReason,
  type MemeLayout,
  type MemeStatus,
} from '@cadence/shared/schemas/meme';
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
import type { MemeAnalysisTable, StoredExtract } from './db-types.ts';

export type MemeAnalysisRow = Selectable<MemeAnalysisTable>;

/** What the analysis stage found, written when it hands over to the compilation. */
export interface AnalysisOutcome {
  durationSeconds: number;
  hasAudio: boolean;
  shorterThanTarget: boolean;
  extracts: StoredExtract[];
}

/** What every way of failing an analysis writes: the reason, and the end of its run. */
const failedRow = (reason: MemeFailReason) =>
  ({
    status: 'failed',
    fail_reason: reason,
    finished_at: new Date(),
    unfinished_runs: 0,
    ...noLease,
  }) as const;

/**
 * Meme analyses SQL. Every user-facing query is scoped by user id; the worker's by analysis id
 * and lease: a job's writes land only while it holds the lease (db/lease.ts).
 */
export function createMemeRepository(db: Kysely<Database>) {
  const leases = leaseStatements(db, 'meme_analyses', 'id');
  const leased = (id: string, owner: string) =>
    db.updateTable('meme_analyses').where('id', '=', id).where(heldBy(owner));

  /** Fails the row if it is in one of `statuses`, lease or not. */
  async function failIn(id: string, statuses: readonly MemeStatus[], reason: MemeFailReason) {
    await db
      .updateTable('meme_analyses')
      .set(failedRow(reason))
      .where('id', '=', id)
      .where('status', 'in', statuses)
      .execute();
  }

  return {
    /**
     * Inserts the row unless the user already has `limit` active analyses; null when refused. A
     * per-user advisory lock makes two simultaneous requests count one after the other.
     */
    insertWithinLimit(
      row: Insertable<MemeAnalysisTable>,
      limit: number,
    ): Promise<MemeAnalysisRow | null> {
      return db.transaction().execute(async (trx) => {
        await sql`select pg_advisory_xact_lock(hashtext(${`memes:${row.user_id}`}))`.execute(trx);
        const { count } = await trx
          .selectFrom('meme_analyses')
          .select((eb) => eb.fn.countAll<string>().as('count'))
          .where('user_id', '=', row.user_id)
          .where('status', 'in', activeMemeStatuses)
          .executeTakeFirstOrThrow();
        if (Number(count) >= limit) return null;
        return trx.insertInto('meme_analyses').values(row).returningAll().executeTakeFirstOrThrow();
      });
    },

    listForUser(userId: string) {
      return db
        .selectFrom('meme_analyses')
        .selectAll()
        .where('user_id', '=', userId)
        .orderBy('created_at', 'desc')
        .orderBy('id', 'asc')
        .limit(100)
        .execute();
    },

    findForUser(userId: string, id: string) {
      return db
        .selectFrom('meme_analyses')
        .selectAll()
        .where('user_id', '=', userId)
        .where('id', '=', id)
        .executeTakeFirst();
    },

    /** Any active status → cancelled (the lease goes: the job stops); undefined when not active. */
    cancel(userId: string, id: string) {
      return db
        .updateTable('meme_analyses')
        .set({
          status: 'cancelled',
          finished_at: new Date(),
          unfinished_runs: 0,
          ...noLease,
        })
        .where('user_id', '=', userId)
        .where('id', '=', id)
        .where('status', 'in', activeMemeStatuses)
        .returningAll()
        .executeTakeFirst();
    },

    /**
     * Takes an analysis for its first stage under `lease`: a queued one, or one whose
     * download/analysis worker died, its lease run out (the stage starts again). Undefined
     * otherwise: a duplicate or late job does nothing.
     */
    claimAnalysis(id: string, lease: Lease) {
      return db
        .updateTable('meme_analyses')
        .set({
          status: sql<MemeStatus>`case when source_type = 'youtube' then 'downloading' else 'analysing' end`,
          progress: 0,
          fail_reason: null,
          ...holdLease(lease),
          unfinished_runs: sql<number>`unfinished_runs + 1`,
        })
        .where('id', '=', id)
        .where((eb) =>
          eb.or([
            eb('status', '=', 'queued'),
            eb.and([eb('status', 'in', ['downloading', 'analysing']), leaseFree()]),
          ]),
        )
        .returningAll()
        .executeTakeFirst();
    },

    /** Takes a compilation nobody is running (just handed over or re-requested, or orphaned). */
    claimCompilation(id: string, lease: Lease) {
      return db
        .updateTable('meme_analyses')
        .set({
          progress: 0,
          ...holdLease(lease),
          unfinished_runs: sql<number>`unfinished_runs + 1`,
        })
        .where('id', '=', id)
        .where('status', '=', 'compiling')
        .where(leaseFree())
        .returningAll()
        .executeTakeFirst();
    },

    /**
     * Frees a stage `owner` may still hold, for its job to be queued again: its renewals went
     * unconfirmed (a slow database, a starved process), so it stopped without dying with its
     * process, and this run is not counted towards the crash limit. False when no longer ours.
     */
    async handBack(id: string, owner: string): Promise<boolean> {
      const result = await leased(id, owner)
        .where('status', 'in', ['downloading', 'analysing', 'compiling'])
        .set({
          progress: 0,
          unfinished_runs: sql<number>`greatest(unfinished_runs - 1, 0)`,
          ...noLease,
        })
        .executeTakeFirst();
      return result.numUpdatedRows > 0n;
    },

    /** Extends the stage's lease; false once it is lost (cancelled, recompile, taken over). */
    renewLease: (id: string, lease: Lease) => leases.renew(id, lease),

    async setProgress(id: string, owner: string, progress: number): Promise<void> {
      await leased(id, owner).set({ progress }).execute();
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

    /** False without the lease (cancelled or re-requested meanwhile): the result is unwanted. */
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

    async fail(id: string, owner: string, reason: MemeFailReason): Promise<void> {
      await leased(id, owner).set(failedRow(reason)).execute();
    },

    /** For a job that could not even start (queue down): fails whatever runs, lease or not. */
    failUnleased(id: string, reason: MemeFailReason): Promise<void> {
      return failIn(id, activeMemeStatuses, reason);
    },

    /**
     * A stage's job gave up (it failed MAX_JOB_ATTEMPTS times): fails the row if it is still in
     * that stage, lease or not, so a job abandoned mid-way stops writing (its lease is gone).
     */
    failStage(id: string, statuses: readonly MemeStatus[], reason: MemeFailReason): Promise<void> {
      return failIn(id, statuses, reason);
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

    /** Analyses a job should exist for but may not: everything still active. */
    findInterrupted() {
      return db
        .selectFrom('meme_analyses')
        .select(['id', 'status'])
        .where('status', 'in', activeMemeStatuses)
        .execute();
    },
  };
}

export type MemeRepository = ReturnType<typeof createMemeRepository>;
