-- A split-screen story: the top video over the bottom video, rendered by the worker (pg-boss
-- queue 'stories.render'). Sources are kept as references only: deleting a source video leaves
-- the story (a queued one then fails with 'sourceMissing'); deleting the result clears it.
create table stories (
  id text primary key,
  user_id text not null references "user" ("id") on delete cascade,
  status text not null default 'queued'
    check (status in ('queued', 'rendering', 'completed', 'failed', 'cancelled')),
  progress double precision not null default 0 check (progress >= 0 and progress <= 1),
  top_media_id text references media (id) on delete set null,
  bottom_media_id text references media (id) on delete set null,
  mix_bottom_audio boolean not null,
  result_media_id text references media (id) on delete set null,
  fail_reason text,
  -- Order within one request (they share created_at), so the list keeps the top panel's order.
  position integer not null default 0,
  -- Touched by the rendering worker every ~500 ms: a 'rendering' row with an old heartbeat
  -- belongs to a worker that died, and is rendered again from scratch.
  heartbeat_at timestamptz,
  created_at timestamptz not null default now(),
  finished_at timestamptz
);
create index stories_user_created on stories (user_id, created_at desc, position);
create index stories_active on stories (status) where status in ('queued', 'rendering');
