-- Issue 12 (docs/decisions/030-audit-proof-composer.md): what the creator declares per schedule
-- and chooses per video for TikTok's post_info. `is_aigc`: the 'AI-generated content' label;
-- `cover_timestamp_ms`: the frame the creator picked as cover (null: TikTok's own choice).
alter table schedules add column is_aigc boolean not null default false;
alter table posts add column cover_timestamp_ms integer;

-- Usernames are kept without a leading '@' (createAccountSchema): '@camille' and 'camille' are one
-- account. A name whose bare form another card of the same user already has keeps its '@' (the
-- unique index on lower(username) would refuse it); that card is a duplicate the user can delete.
update tiktok_accounts a
set username = regexp_replace(a.username, '^@+', '')
where a.username like '@%'
  and regexp_replace(a.username, '^@+', '') <> ''
  and not exists (
    select 1 from tiktok_accounts b
    where b.user_id = a.user_id
      and b.id <> a.id
      and lower(b.username) = lower(regexp_replace(a.username, '^@+', ''))
  );
