-- One lease for every row a process works on or locks (docs/decisions/018-one-lease.md): the same
-- two columns everywhere. `lease_owner` is a random token per claim: only that claim renews the
-- lease, writes the row's results or releases it. `lease_until` is when the lease runs out, set
-- from the database's clock (now()) and compared with it alone, never with a process's clock.

-- Stories had a heartbeat with no owner: after a stale takeover both workers kept beating and
-- both rendered. The old heartbeat plus the old 60 s staleness window is when that claim lapses.
alter table stories add column lease_owner text;
alter table stories rename column heartbeat_at to lease_until;
update stories set lease_until = lease_until + interval '60 seconds' where lease_until is not null;

-- Meme analyses stamped heartbeats with the application's clock.
alter table meme_analyses rename column lease to lease_owner;
alter table meme_analyses rename column heartbeat_at to lease_until;
update meme_analyses
  set lease_until = case when lease_owner is null then null else lease_until + interval '60 seconds' end;

-- Lock rows: a row exists while its lock is held.
alter table upload_locks rename column owner to lease_owner;
alter table upload_locks rename column expires_at to lease_until;
alter table tiktok_token_refresh_locks rename column owner to lease_owner;
alter table tiktok_token_refresh_locks rename column expires_at to lease_until;
