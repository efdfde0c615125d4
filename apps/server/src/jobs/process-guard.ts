import type { Logger } from 'pino';
import { abandonRunningJob } from './queue.ts';

/**
 * The last line of defence, for main.ts and worker.ts: an error nobody caught.
 *
 * - From a job's own work (a stream's 'error' with no listener, a promise nobody awaited — the
 *   async context says which job): that job is abandoned, which fails it like a throw (retried,
 *   then given up with a reason on its row) and stops its tools. The process keeps serving: one
 *   bad file must not take down the API and every other job. The job's state lives in its row,
 *   fenced by a lease, so nothing it left half-done in memory is trusted afterwards.
 * - An unhandled rejection outside any job: logged, the process keeps running. Nothing was
 *   unwound mid-way; the usual source is a library's fire-and-forget write during a database blip.
 * - An uncaught exception outside any job: logged, then the process exits (crash-only). A throw
 *   unwound an unknown stack, and Node does not promise a consistent process after that. Restart
 *   is safe: leases expire, start-up recovery resumes the work, and each row counts its
 *   unfinished runs (migration 0011) so a row that keeps killing its worker is failed after
 *   MAX_JOB_ATTEMPTS runs instead of looping forever.
 */
export function installProcessGuards(
  logger: Logger,
  options: { exit?: (code: number) => void } = {},
): void {
  const exit = options.exit ?? ((code: number) => process.exit(code));
  process.on('uncaughtException', (error, origin) => {
    const job = abandonRunningJob(error);
    if (job) {
      logger.fatal({ ...job, err: error, origin }, 'uncaught error in a job: job abandoned');
      return;
    }
    logger.fatal({ err: error, origin }, 'uncaught exception: exiting');
    // pino writes synchronously to stdout by default; flush any buffered destination anyway.
    logger.flush();
    exit(1);
  });
  process.on('unhandledRejection', (reason) => {
    const job = abandonRunningJob(reason);
    if (job) {
      logger.fatal({ ...job, err: reason }, 'unhandled rejection in a job: job abandoned');
      return;
    }
    logger.fatal({ err: reason }, 'unhandled promise rejection (process kept running)');
  });
}
