-- A meme analysis (Pro): a YouTube link (downloaded by yt-dlp in the worker) or an uploaded
-- video, scored into extracts and compiled into a one-minute vertical video. Jobs: pg-boss
-- 'memes.analyse' (download + analysis + thumbnails) then 'memes.compile' (also for recompiles).
create table meme_analyses (
  id text primary key,
  user_id text not null references "user" ("id") on delete cascade,
  status text not null default 'queued'
    check (status in ('queued', 'downloading', 'analysing', 'compiling', 'completed', 'failed', 'cancelled')),
  -- Share of the current stage done.
  progress double precision not null default 0 check (progress >= 0 and progress <= 1),
  source_type text not null check (source_type in ('youtube', 'media')),
  source_url text,
  source_media_id text references media (id) on delete set null,
  -- The downloaded YouTube file, kept in storage so a recompile needs no second download.
  source_key text,
  layout text not null check (layout in ('crop', 'blur')),
  title text,
  duration_seconds double precision,
  has_audio boolean,
  shorter_than_target boolean not null default false,
  -- [{index, startSeconds, endSeconds, score, peakSeconds, selected, thumbnailKey}] once analysed.
  extracts jsonb,
  result_media_id text references media (id) on delete set null,
  fail_reason text,
  -- The job working on the row holds a lease (a random token) and touches heartbeat_at every
  -- ~500 ms; its writes only land while it still holds the lease. Cancel and recompile clear the
  -- lease, so a stopped job can never overwrite newer work. An active row with an old heartbeat
  -- belongs to a worker that died, and its stage is run again.
  lease text,
  heartbeat_at timestamptz,
  created_at timestamptz not null default now(),
  finished_at timestamptz,
  check ((source_type = 'youtube') = (source_url is not null))
);
create index meme_analyses_user_created on meme_analyses (user_id, created_at desc);
create index meme_analyses_active on meme_analyses (status)
  where status in ('queued', 'downloading', 'analysing', 'compiling');
