import type { Logger } from 'pino';
import type { Lease } from '../../db/lease.ts';
import { leaseLoss, startHeartbeat } from '../../lib/heartbeat.ts';
import { createProgressWriter } from '../../lib/progress-writer.ts';
import { StageStoppedError } from './meme-state.ts';
import type { MemeAnalysisRow, MemeRepository } from './repository.ts';

/** A stage's tool at work: it stops when `signal` aborts and reports its progress. */
export type LeasedWork<TResult> = (
  signal: AbortSignal,
  onProgress: (fraction: number) => void,
) => Promise<TResult>;

/** A claimed stage's run, as the stage's own steps see it. */
export interface StageRun {
  row: MemeAnalysisRow;
  lease: Lease;
  /** Scratch space of this run, removed when the stage ends. */
  workDir: string;
  /** Runs `work` under the run's lease (see withLease). */
  leased<TResult>(work: LeasedWork<TResult>): Promise<TResult>;
}

/** What keeps a stage's lease: the rows, the log, the renewal pace, the stages of this process. */
export interface StageLeaseContext {
  repository: Pick<MemeRepository, 'setProgress' | 'renewLease'>;
  logger: Logger;
  heartbeatMs: number;
  /** Stages running in this process, so a cancel here stops the tool at once (others poll). */
  running: Map<string, AbortController>;
}

/**
 * Runs a claimed stage with a heartbeat: the lease is renewed every `heartbeatMs`; losing it
 * (cancel, recompile, takeover, from any process) aborts the stage. Progress writes are
 * throttled, kept in order, and never reach 1 (reserved for the finished row). The heartbeat has
 * stopped, and every write has landed, when this resolves: the caller can then hand the row over.
 */
export async function withLease<TResult>(
  { repository, logger, heartbeatMs, running }: StageLeaseContext,
  id: string,
  lease: Lease,
  jobSignal: AbortSignal | undefined,
  fn: LeasedWork<TResult>,
): Promise<TResult> {
  // A cancel in this process stops the tool at once; elsewhere, the next renewal notices.
  const controller = new AbortController();
  running.set(id, controller);
  const progress = createProgressWriter({
    write: (fraction) => repository.setProgress(id, lease.owner, fraction),
    onError: (error) => logger.warn({ err: error, analysisId: id }, 'progress write failed'),
  });
  const heartbeat = startHeartbeat({
    intervalMs: heartbeatMs,
    renew: () => repository.renewLease(id, lease),
    lostAfterMs: lease.ms,
    since: lease.claimedAt,
    // An abandoned job (see jobs/queue.ts) stops its tools and lets its lease lapse, like a cancel.
    signal: jobSignal ? AbortSignal.any([controller.signal, jobSignal]) : controller.signal,
    onError: (error) => logger.warn({ err: error, analysisId: id }, 'meme lease renewal failed'),
  });
  let outcome: { ok: true; value: TResult } | { ok: false; error: unknown };
  try {
    outcome = { ok: true, value: await fn(heartbeat.signal, progress.onProgress) };
  } catch (error) {
    outcome = { ok: false, error };
  }
  await heartbeat.stop();
  await progress.settled();
  if (running.get(id) === controller) running.delete(id);
  // Once the lease is gone nobody wants the stage's result, whatever it resolved with.
  if (heartbeat.signal.aborted) {
    throw new StageStoppedError('stopped', leaseLoss(heartbeat.signal));
  }
  if (!outcome.ok) throw outcome.error;
  return outcome.value;
}
