-- Media transfer (issue 12, docs/decisions/031-media-transfer.md).

-- TikTok answers PUBLISH_COMPLETE before moderation lets the post's public id out (minutes to
-- hours later). A completed post still looking for its id has the number of checks made so far
-- here (null: not looking, or found); its next check is at wake_at, by the posts.publish job.
alter table posts add column post_id_checks integer;
create index posts_post_id_wake on posts (wake_at) where post_id_checks is not null;

-- 'inbox': the schedule's posts go to the creator's TikTok inbox as drafts (video.upload)
-- instead of being published (video.publish).
alter table schedules add column delivery text not null default 'direct'
  check (delivery in ('direct', 'inbox'));
