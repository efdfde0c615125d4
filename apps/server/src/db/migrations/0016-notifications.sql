-- Notifications (issue 13, docs/decisions/028-notifications.md): one row per event a person should
-- hear about, written by the one place that decides the event (publisher, token refresh, story and
-- compilation jobs). `dedupe_key` makes the same event recorded twice (a retried job, two workers)
-- one row, and the email of a row is queued only by the insert that created it: an event is never
-- mailed twice. Rows are deleted after 90 days (notifications.purge).
create table notifications (
  id uuid primary key default gen_random_uuid(),
  user_id text not null references "user" ("id") on delete cascade,
  type text not null,
  dedupe_key text not null,
  -- What the text needs: post id, account handle, fail reason… (the notificationDataSchema).
  data jsonb not null default '{}'::jsonb,
  created_at timestamptz not null default now(),
  read_at timestamptz,
  -- The outbox row that mailed it alone, or the digest that included it.
  mailed_at timestamptz,
  unique (user_id, dedupe_key)
);

create index notifications_user_created_idx on notifications (user_id, created_at desc);
create index notifications_created_idx on notifications (created_at);

-- Email choices per person. No row: the defaults (failures and reconnect-needed on, successes off,
-- no digest). `email_types` lists the types mailed; `digest` sends them once a day instead.
create table notification_settings (
  user_id text primary key references "user" ("id") on delete cascade,
  email_types text[] not null,
  digest boolean not null default false,
  updated_at timestamptz not null default now()
);
