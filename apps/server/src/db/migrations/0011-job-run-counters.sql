-- Poison rows: a row whose processing kills the worker process would otherwise be re-queued at
-- every start-up and kill it again, forever. Each claim by a worker counts one run; a run that
-- ends in any way the code sees (done, failed, cancelled, handed over, released) resets the count.
-- So the count is the number of runs in a row that never finished: the process died (or the job
-- was abandoned) during each. A claim that finds MAX_JOB_ATTEMPTS of them fails the row with its
-- reason instead of running it again (apps/server/src/jobs/queue.ts).
alter table meme_analyses add column unfinished_runs integer not null default 0;
alter table stories add column unfinished_runs integer not null default 0;
alter table posts add column unfinished_runs integer not null default 0;
