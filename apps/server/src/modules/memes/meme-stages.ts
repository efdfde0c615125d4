import { rm } from 'node:fs/promises';
import type { Logger } from 'pino';
import { MAX_JOB_ATTEMPTS } from '../../jobs/queue.ts';
import { MEDIA_JOB_LEASE, newLease, type Lease } from '../../db/lease.ts';
import { makeWorkDir } from '../../lib/work-dir.ts';
import { analyseStage, type AnalyseStageDeps } from './analyse-stage.ts';
import { compileStage, type CompileStageDeps } from './compile-stage.ts';
import {
  failReasonFor,
  recoveryOf,
  stageStatuses,
  StageStoppedError,
  type MemeStage,
  type StageOutcome,
} from './meme-state.ts';
import type { MemeAnalysisRow, MemeRepository } from './repository.ts';
import { withLease, type StageLeaseContext, type StageRun } from './stage-lease.ts';

export interface MemeStagesDeps extends AnalyseStageDeps, CompileStageDeps {
  repository: MemeRepository;
  /** Queue the first stage (pg-boss 'memes.analyse'), optionally after a delay. */
  enqueueAnalysis: (analysisId: string, options?: { delaySeconds?: number }) => Promise<void>;
  logger: Logger;
  /** A stage's lease and how often it is renewed (default MEDIA_JOB_LEASE). */
  lease?: { ms: number; heartbeatMs: number };
}

/** What runs a stage: the deps, its lease's length, and what keeps the lease. */
interface StageContext extends StageLeaseContext {
  deps: MemeStagesDeps;
  leaseMs: number;
}

function enqueueStage(
  deps: MemeStagesDeps,
  stage: MemeStage,
  id: string,
  options?: { delaySeconds?: number },
): Promise<void> {
  return stage === 'compile'
    ? deps.enqueueCompilation(id, options)
    : deps.enqueueAnalysis(id, options);
}

/** Queues again a stage whose lease went unconfirmed, if it was still `owner`'s. */
async function handBack(
  deps: MemeStagesDeps,
  id: string,
  owner: string,
  stage: MemeStage,
): Promise<void> {
  const { repository, logger } = deps;
  try {
    if (!(await repository.handBack(id, owner))) return;
    logger.warn({ analysisId: id, stage }, 'lease not renewed in time: meme stage handed back');
    await enqueueStage(deps, stage, id);
  } catch (error) {
    logger.warn(
      { err: error, analysisId: id },
      'could not hand back a meme stage after a slow lease',
    );
  }
}

/** Logs and records a failed stage; a stopped one (cancel) is just reported. */
async function settleFailure(
  deps: MemeStagesDeps,
  row: MemeAnalysisRow,
  lease: Lease,
  error: unknown,
  stage: MemeStage,
): Promise<StageOutcome> {
  const { repository, logger } = deps;
  if (error instanceof StageStoppedError) {
    logger.info({ analysisId: row.id, stage }, 'meme stage stopped');
    // Stopped by renewals that never landed, the stage may still be ours: handed back now (the
    // heartbeat has stopped), rather than left running in name until a worker restarts.
    if (error.leaseLost === 'unconfirmed') await handBack(deps, row.id, lease.owner, stage);
    return 'cancelled';
  }
  const reason = failReasonFor(error);
  if (reason === 'memes.failures.failed') {
    logger.error({ err: error, analysisId: row.id, stage }, 'meme stage failed');
  } else {
    logger.info({ analysisId: row.id, stage, reason, err: error }, 'meme stage refused');
  }
  await repository.fail(row.id, lease.owner, reason);
  return 'failed';
}

/** Claims with a fresh lease, runs `fn` in a temporary directory, records the outcome. */
async function runStage(
  context: StageContext,
  stage: MemeStage,
  analysisId: string,
  jobSignal: AbortSignal | undefined,
  fn: (run: StageRun) => Promise<void>,
): Promise<StageOutcome> {
  const { deps } = context;
  const { repository, logger } = deps;
  const lease = newLease(context.leaseMs);
  const row =
    stage === 'analyse'
      ? await repository.claimAnalysis(analysisId, lease)
      : await repository.claimCompilation(analysisId, lease);
  if (!row) return 'skipped';
  // Every earlier run of this stage since the last one that finished died with its process:
  // running it again would take the worker down again. The claim counted this run too.
  if (row.unfinished_runs > MAX_JOB_ATTEMPTS) {
    logger.error(
      { analysisId, stage, unfinishedRuns: row.unfinished_runs - 1 },
      'meme stage crashed its worker too often: failed, not run again',
    );
    await repository.fail(row.id, lease.owner, 'memes.failures.crashed');
    return 'failed';
  }
  const workDir = await makeWorkDir(`memes-${stage}-`);
  try {
    await fn({
      row,
      lease,
      workDir,
      leased: (work) => withLease(context, row.id, lease, jobSignal, work),
    });
    logger.info({ analysisId, stage }, 'meme stage finished');
    return 'completed';
  } catch (error) {
    return settleFailure(deps, row, lease, error, stage);
  } finally {
    await rm(workDir, { recursive: true, force: true });
  }
}

/**
 * The meme detector's two worker stages ('memes.analyse': download, analysis, thumbnails;
 * 'memes.compile': the 1080×1920 compilation), each run under a lease renewed by a heartbeat.
 */
export function createMemeStages(deps: MemeStagesDeps) {
  const { repository } = deps;
  const { ms: leaseMs, heartbeatMs } = deps.lease ?? MEDIA_JOB_LEASE;
  const context: StageContext = {
    deps,
    leaseMs,
    repository,
    logger: deps.logger,
    heartbeatMs,
    running: new Map<string, AbortController>(),
  };

  return {
    /** Worker, 'memes.analyse': download (links), analysis, thumbnails → queues the compile. */
    analyse: (analysisId: string, jobSignal?: AbortSignal) =>
      runStage(context, 'analyse', analysisId, jobSignal, (run) => analyseStage(deps, run)),

    /** Worker, 'memes.compile': the 1080×1920 compilation of the selected extracts → media. */
    compile: (analysisId: string, jobSignal?: AbortSignal) =>
      runStage(context, 'compile', analysisId, jobSignal, (run) => compileStage(deps, run)),

    /** Stops the analysis's stage if it runs in this process (a cancel: others see the row). */
    stop(analysisId: string, why: string): void {
      context.running.get(analysisId)?.abort(new StageStoppedError(why));
    },

    /** The stage's job failed MAX_JOB_ATTEMPTS times: the row says so, if still in that stage. */
    async giveUp(stage: MemeStage, analysisId: string): Promise<void> {
      await repository.failStage(analysisId, stageStatuses(stage), 'memes.failures.crashed');
    },

    /** At worker start: queue again what a stopped process left behind (see recoveryOf). */
    async recoverInterrupted(): Promise<number> {
      const rows = await repository.findInterrupted();
      for (const row of rows) {
        const { stage, delaySeconds } = recoveryOf(row.status, leaseMs);
        await enqueueStage(
          deps,
          stage,
          row.id,
          delaySeconds === undefined ? undefined : { delaySeconds },
        );
      }
      return rows.length;
    },
  };
}

export type MemeStages = ReturnType<typeof createMemeStages>;
