-- Kills from outside and poison posts told apart (docs/decisions/033-kills-and-poison-posts.md).
--
-- Every process that publishes registers here and beats every second: lease_until (the
-- database's clock) and holding, the number of posts it was running at its last beat. A process
-- whose row expired is dead; its last beat says whether it died alone with one post or together
-- with others.
create table worker_processes (
  id text primary key,
  started_at timestamptz not null default now(),
  lease_until timestamptz not null,
  holding integer not null default 0
);

-- The process of the post's latest run (its claim), to look up in worker_processes when that
-- run never finished.
alter table posts add column run_process text;
-- Runs in a row that died together with other posts in their process (most likely a kill from
-- outside): not counted in unfinished_runs. From the second such death, the post runs alone in
-- its process, where a death can be blamed on it. Reset with unfinished_runs on release.
alter table posts add column company_deaths integer not null default 0;
