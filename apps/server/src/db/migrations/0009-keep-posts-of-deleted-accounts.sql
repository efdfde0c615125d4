-- Deleting a TikTok account keeps the creator's history. Its schedules and posts used to be
-- deleted with it (on delete cascade), so completed and failed posts vanished from the list; now
-- they stay, detached from the account (account_id null), and posts.account_username still says
-- which account they were for. Pending posts are cancelled before the account goes.
alter table schedules alter column account_id drop not null;
alter table schedules drop constraint schedules_account_id_fkey;
alter table schedules add constraint schedules_account_id_fkey
  foreign key (account_id) references tiktok_accounts (id) on delete set null;

alter table posts alter column account_id drop not null;
alter table posts drop constraint posts_account_id_fkey;
alter table posts add constraint posts_account_id_fkey
  foreign key (account_id) references tiktok_accounts (id) on delete set null;
