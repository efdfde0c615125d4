-- Outgoing mail (modules/mail). One row per message, created before its delivery job is queued:
-- the job sends the row, never a message of its own, so a retried or duplicated job finds
-- `sent_at` set and sends nothing. The rendered message is kept encrypted (it may hold a link
-- that signs a person in) and erased once sent or given up; the row stays for the per-address
-- limits and is purged after 30 days. Numbered 0013: 0012 belongs to another branch of work.
create table mail_outbox (
  id text primary key,
  user_id text references "user" ("id") on delete cascade,
  kind text not null,
  to_address text not null,
  language text not null check (language in ('fr', 'en')),
  subject text not null,
  content_enc text,
  attempts integer not null default 0,
  -- Set while a worker delivers the row (a lease: a worker that died leaves it to expire).
  sending_since timestamptz,
  last_error text,
  created_at timestamptz not null default now(),
  sent_at timestamptz,
  failed_at timestamptz
);

create index mail_outbox_recent_idx on mail_outbox (kind, to_address, created_at);
create index mail_outbox_user_idx on mail_outbox (user_id);
