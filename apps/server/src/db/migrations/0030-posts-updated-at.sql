-- updated_at is a post's "changed" mark: the live stream (post-events) sends the posts whose mark
-- moved, and a prepared run (decision 039) sends its post only if the mark is still the one its
-- claim read, so that an edit, a reschedule or a cancel made meanwhile is never lost. The database
-- keeps it, so that no writer can forget it: any UPDATE that names one of the columns below (what
-- the creator sees of a post, and what its run sends to TikTok) moves it, whether or not the value
-- changed (an edit of the post's schedule names schedule_id, its settings being the schedule's).
--
-- Not listed, and so not moving the mark: the run's own bookkeeping (lease, wake-up, attempt and
-- crash counters, the init's start, TikTok's publish id and upload progress, the public id's
-- checks), which a prepared run writes on its post while it waits, and outcome_at and updated_at,
-- which triggers keep. posts-updated-at.db.test.ts fails on a column in neither list.
create function posts_touch_updated_at() returns trigger language plpgsql as $$
begin
  new.updated_at := clock_timestamp();
  return new;
end
$$;
create trigger posts_updated_at before update of
  schedule_id, user_id, account_id, account_username, media_id, title, due_at, randomized,
  jitter_minutes, cover_timestamp_ms, status, fail_reason, note, postponed_from, tiktok_post_id,
  published_at
  on posts for each row execute function posts_touch_updated_at();
