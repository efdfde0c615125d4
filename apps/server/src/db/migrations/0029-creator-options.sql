-- TikTok's last successful creator_info per account (its options, not who the creator is), with
-- the TikTok user it was about: while TikTok says the creator cannot post now (today's cap), a
-- post due on a later day is offered and checked against these, and the publisher asks again
-- when it is due.
create table tiktok_creator_options (
  account_id uuid primary key references tiktok_accounts (id) on delete cascade,
  open_id text not null,
  privacy_level_options text[] not null,
  comment_disabled boolean not null,
  duet_disabled boolean not null,
  stitch_disabled boolean not null,
  max_video_post_duration_sec integer,
  fetched_at timestamptz not null
);
