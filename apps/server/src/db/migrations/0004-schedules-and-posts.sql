-- A schedule is one submission of the scheduler form; it keeps the request as the user made it
-- (the spec's "scheduled post document"). Each selected video becomes one post with its UTC due time.
create table schedules (
  id uuid primary key default gen_random_uuid(),
  user_id text not null references "user" ("id") on delete cascade,
  account_id uuid not null references tiktok_accounts (id) on delete cascade,
  publish_type text not null check (publish_type in ('immediate', 'scheduled', 'spaced')),
  time_zone text not null,
  date text,
  time text,
  -- { count, value, unit, startTime, randomizeTime } for spaced schedules.
  spaced_interval jsonb,
  privacy_level text not null,
  allow_comment boolean not null,
  allow_duet boolean not null,
  allow_stitch boolean not null,
  -- { enabled, yourBrand, brandedContent }
  commercial_content jsonb not null,
  created_at timestamptz not null default now()
);
create index schedules_user_created on schedules (user_id, created_at desc);

-- One post per video. The publisher's progress lives here, so a restarted worker resumes from the
-- row (publish_id, uploaded_bytes) instead of posting again. pg-boss jobs are only wake-ups.
create table posts (
  id uuid primary key default gen_random_uuid(),
  schedule_id uuid not null references schedules (id) on delete cascade,
  user_id text not null references "user" ("id") on delete cascade,
  account_id uuid not null references tiktok_accounts (id) on delete cascade,
  -- Shown in the list even if the account is renamed later.
  account_username text not null,
  -- No cascade: a video used by a post cannot be deleted (the media service answers 409).
  media_id text not null references media (id),
  title text not null,
  due_at timestamptz not null,
  randomized boolean not null default false,
  jitter_minutes integer not null default 0,
  status text not null default 'pending'
    check (status in ('pending', 'publishing', 'completed', 'failed', 'cancelled')),
  fail_reason text,
  attempt integer not null default 0,
  -- Mutual exclusion between workers: whoever holds an unexpired lease works on the post.
  lease_owner text,
  lease_until timestamptz,
  -- When the next job for this post is expected to run; the sweep re-queues posts it forgot.
  wake_at timestamptz not null,
  -- Set just before video/init is sent: with no publish_id after it, the outcome is unknown.
  init_started_at timestamptz,
  publish_id text,
  upload_url text,
  upload_url_expires_at timestamptz,
  video_size bigint,
  chunk_size bigint,
  total_chunk_count integer,
  uploaded_bytes bigint not null default 0,
  poll_count integer not null default 0,
  tiktok_post_id text,
  published_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index posts_user_updated on posts (user_id, updated_at);
create index posts_schedule on posts (schedule_id, due_at);
create index posts_account_pending on posts (account_id, due_at) where status = 'pending';
create index posts_wake on posts (wake_at) where status in ('pending', 'publishing');

-- TikTok allows 6 video inits per minute per access token: the publisher reserves a slot here
-- (one row per account, updated atomically) before each init, so parallel workers never exceed it.
create table tiktok_init_pacing (
  account_id uuid primary key references tiktok_accounts (id) on delete cascade,
  recent_inits timestamptz[] not null default '{}'
);
