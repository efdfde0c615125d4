-- Analytics (issue 14, docs/decisions/023-analytics-sync.md): what TikTok's Display API says of a
-- creator's public videos and account, synced by the analytics.* jobs.

-- One row per TikTok user a Cadence user has connected. It outlives the account card: deleting
-- the card (or losing its grant) keeps the history, and reconnecting the same TikTok user (same
-- open_id) picks it up again. The sync's progress lives here, so a crash resumes where it was.
create table analytics_accounts (
  id uuid primary key default gen_random_uuid(),
  user_id text not null references "user" ("id") on delete cascade,
  open_id text not null,
  account_id uuid references tiktok_accounts (id) on delete set null,
  username text not null,
  display_name text,
  avatar_url text,
  -- An unfinished listing pass: the cursor of its next page (ms) and the create_time (s) of the
  -- newest video it saw; `known_newest` is that of the last finished pass (listing stops there).
  list_cursor bigint,
  list_pass_newest bigint,
  known_newest bigint,
  next_sync_at timestamptz not null default now(),
  last_synced_at timestamptz,
  last_error text,
  failures integer not null default 0,
  -- How many videos the history holds, counted at the end of each sync (the accounts list reads it).
  video_count integer not null default 0,
  lease_owner text,
  lease_until timestamptz,
  created_at timestamptz not null default now(),
  unique (user_id, open_id)
);
create index analytics_accounts_user on analytics_accounts (user_id);
create index analytics_accounts_account on analytics_accounts (account_id) where account_id is not null;

-- One row per public video, with its latest counts (top videos read them without a join).
create table analytics_videos (
  id uuid primary key default gen_random_uuid(),
  analytics_account_id uuid not null references analytics_accounts (id) on delete cascade,
  user_id text not null references "user" ("id") on delete cascade,
  video_id text not null,
  -- The Cadence post that published it, matched on posts.tiktok_post_id (also when that id
  -- arrives after the video was first synced).
  post_id uuid references posts (id) on delete set null,
  title text not null default '',
  cover_image_url text,
  share_url text,
  duration integer,
  posted_at timestamptz not null,
  view_count bigint not null default 0,
  like_count bigint not null default 0,
  comment_count bigint not null default 0,
  share_count bigint not null default 0,
  -- Views 24 h after posting, interpolated between the hourly snapshots around that age.
  views_at_24h bigint,
  first_seen_at timestamptz not null default now(),
  last_snapshot_at timestamptz,
  -- Hourly for the first 48 h, daily after.
  next_snapshot_at timestamptz not null,
  unique (analytics_account_id, video_id)
);
create index analytics_videos_due on analytics_videos (analytics_account_id, next_snapshot_at);
create index analytics_videos_posted on analytics_videos (analytics_account_id, posted_at desc);
create index analytics_videos_post on analytics_videos (post_id) where post_id is not null;
create index analytics_videos_user_video on analytics_videos (user_id, video_id);

-- A video's counts over time; a row only when they changed.
create table analytics_video_snapshots (
  video_row_id uuid not null references analytics_videos (id) on delete cascade,
  taken_at timestamptz not null,
  view_count bigint not null,
  like_count bigint not null,
  comment_count bigint not null,
  share_count bigint not null,
  primary key (video_row_id, taken_at)
);

-- The account over time (at most hourly): TikTok's totals (user.info.stats, null without the
-- scope) and the sums of its videos' latest counts, which the charts read.
create table analytics_account_snapshots (
  analytics_account_id uuid not null references analytics_accounts (id) on delete cascade,
  taken_at timestamptz not null,
  follower_count bigint,
  following_count bigint,
  likes_count bigint,
  video_count bigint,
  view_total bigint not null,
  like_total bigint not null,
  comment_total bigint not null,
  share_total bigint not null,
  primary key (analytics_account_id, taken_at)
);

-- Linking a synced video to the post that published it looks posts up by TikTok's id.
create index posts_tiktok_post_id on posts (tiktok_post_id) where tiktok_post_id is not null;
