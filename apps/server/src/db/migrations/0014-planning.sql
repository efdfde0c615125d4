-- Planning (issue 11): the queue, history and calendar read posts by due time; drafts; posting
-- slots; the user's time zone; posts Cadence postponed on its own say why.

-- The user's IANA zone ('Europe/Paris'), sent by the browser at sign-up or set later; null until
-- then (the server reads the request's zone instead).
alter table "user" add column "timeZone" text;

-- Why Cadence moved a post by itself (a translation key), and from when.
alter table posts add column note text;
alter table posts add column postponed_from timestamptz;

-- 'queue': the posts were put in the account's posting slots ('Add to queue').
alter table schedules drop constraint schedules_publish_type_check;
alter table schedules add constraint schedules_publish_type_check
  check (publish_type in ('immediate', 'scheduled', 'spaced', 'queue'));

-- Keyset pages (due_at, id) over one user's posts. Partial indexes, one per list: the queue's
-- first page must not walk past 100,000 published posts to find the pending ones, nor the
-- history past the pending ones. The queries repeat these predicates literally so the planner
-- can use them.
create index posts_user_upcoming on posts (user_id, due_at, id)
  where status in ('pending', 'publishing');
create index posts_user_history on posts (user_id, due_at, id)
  where status in ('completed', 'failed', 'cancelled');
-- Calendar ranges and per-day counts (all statuses), readable from the index alone.
create index posts_user_due on posts (user_id, due_at) include (account_id, status);

-- A draft: the form saved without a time (its videos, captions and settings).
create table drafts (
  id uuid primary key default gen_random_uuid(),
  user_id text not null references "user" ("id") on delete cascade,
  -- Optional while drafting; a deleted account leaves the draft without one.
  account_id uuid references tiktok_accounts (id) on delete set null,
  privacy_level text,
  allow_comment boolean not null default false,
  allow_duet boolean not null default false,
  allow_stitch boolean not null default false,
  commercial_content jsonb not null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index drafts_user_updated on drafts (user_id, updated_at desc, id);

-- A draft's videos in the user's order. The foreign key keeps a video a draft uses from being
-- deleted (the media service answers 409, as for a scheduled post).
create table draft_videos (
  draft_id uuid not null references drafts (id) on delete cascade,
  position integer not null,
  media_id text not null references media (id),
  title text not null,
  primary key (draft_id, position)
);
create index draft_videos_media on draft_videos (media_id);

-- Posting slots: an account's recurring weekly times (ISO weekday, 'HH:MM' in the user's zone).
create table posting_slots (
  account_id uuid not null references tiktok_accounts (id) on delete cascade,
  weekday smallint not null check (weekday between 1 and 7),
  time text not null check (time ~ '^([01][0-9]|2[0-3]):[0-5][0-9]$'),
  primary key (account_id, weekday, time)
);
