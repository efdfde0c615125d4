-- The history is in the order things happened (decision 047): a post cancelled today that was due
-- next week is today's news, not next week's. posts had no time for a failure or a cancel, and
-- updated_at moves after the outcome (TikTok's public id arrives hours after publishing), so the
-- outcome gets its own time: when the post became completed, failed or cancelled; null before.
alter table posts add column outcome_at timestamptz;

-- Past outcomes: the best times the rows still hold.
update posts
set outcome_at = case when status = 'completed' then coalesce(published_at, updated_at)
                      else updated_at end
where status in ('completed', 'failed', 'cancelled');

-- Kept by the database, so no way a post reaches or leaves the history (publisher, cancel, account
-- deletion, restore, retry, a seed in a test) can forget it. A time given with the status (a seed
-- of past posts) is kept; otherwise the change's clock. Leaving the history clears it.
create function posts_keep_outcome_at() returns trigger language plpgsql as $$
begin
  if new.status not in ('completed', 'failed', 'cancelled') then
    new.outcome_at := null;
  elsif tg_op = 'INSERT' then
    new.outcome_at := coalesce(new.outcome_at, clock_timestamp());
  elsif new.status is distinct from old.status
    and new.outcome_at is not distinct from old.outcome_at then
    new.outcome_at := clock_timestamp();
  end if;
  return new;
end
$$;
create trigger posts_outcome_at before insert or update of status, outcome_at on posts
  for each row execute function posts_keep_outcome_at();

-- The history's keyset pages now run on (outcome_at, id); the predicate stays literal (0014).
drop index posts_user_history;
create index posts_user_history on posts (user_id, outcome_at, id)
  where status in ('completed', 'failed', 'cancelled');
