-- Account linking (issue 12, docs/decisions/035-account-linking.md).

-- A grant TikTok issued for another account than the card's: held here, for the person who
-- connected and for a few minutes, until they keep it on the card or cancel (the tokens are then
-- revoked). Tokens are encrypted like the accounts' own. Single use: keep and cancel delete the row.
create table tiktok_pending_connections (
  id uuid primary key default gen_random_uuid(),
  user_id text not null references "user" ("id") on delete cascade,
  account_id uuid not null references tiktok_accounts (id) on delete cascade,
  open_id text not null,
  username text,
  display_name text,
  avatar_url text,
  access_token_enc text not null,
  refresh_token_enc text not null,
  access_token_expires_at timestamptz not null,
  refresh_token_expires_at timestamptz not null,
  scopes text[] not null,
  expires_at timestamptz not null,
  created_at timestamptz not null default now()
);
create index tiktok_pending_connections_expiry on tiktok_pending_connections (expires_at);

-- Inbox drafts (issue 12): TikTok's inbox init takes no post_info, the creator sets the privacy in
-- the TikTok app, so an inbox schedule has none. Every direct post still has one.
alter table schedules alter column privacy_level drop not null;
alter table schedules add constraint schedules_privacy_level_direct
  check (privacy_level is not null or delivery = 'inbox');

-- Drafts keep what the form holds (issue 12): the AI-generated label, each video's cover frame,
-- and whether it goes to the inbox.
alter table drafts add column is_aigc boolean not null default false;
alter table drafts add column delivery text not null default 'direct'
  check (delivery in ('direct', 'inbox'));
alter table draft_videos add column cover_timestamp_ms integer;
