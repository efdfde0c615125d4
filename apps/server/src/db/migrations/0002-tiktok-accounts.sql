-- TikTok accounts belong to one Cadence user. Tokens are AES-256-GCM ciphertexts (lib/token-cipher.ts).
create table tiktok_accounts (
  id uuid primary key default gen_random_uuid(),
  user_id text not null references "user" ("id") on delete cascade,
  username text not null,
  open_id text,
  display_name text,
  avatar_url text,
  scopes text[] not null default '{}',
  status text not null default 'not_connected'
    check (status in ('not_connected', 'connected', 'reconnect_needed')),
  access_token_enc text,
  refresh_token_enc text,
  access_token_expires_at timestamptz,
  refresh_token_expires_at timestamptz,
  default_privacy_level text
    check (default_privacy_level in ('PUBLIC_TO_EVERYONE', 'MUTUAL_FOLLOW_FRIENDS', 'FOLLOWER_OF_CREATOR', 'SELF_ONLY')),
  allow_comment boolean not null default false,
  allow_duet boolean not null default false,
  allow_stitch boolean not null default false,
  connected_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
-- A username once per user (case-insensitive), a TikTok user once per Cadence user.
create unique index tiktok_accounts_user_username on tiktok_accounts (user_id, lower(username));
create unique index tiktok_accounts_user_open_id on tiktok_accounts (user_id, open_id) where open_id is not null;
create index tiktok_accounts_refresh_due on tiktok_accounts (access_token_expires_at) where status = 'connected';

-- Single-use OAuth `state`: only its hash is stored, bound to the user and the account, with the
-- PKCE verifier (encrypted) and a short expiry.
create table oauth_states (
  state_hash text primary key,
  user_id text not null references "user" ("id") on delete cascade,
  account_id uuid not null references tiktok_accounts (id) on delete cascade,
  code_verifier_enc text not null,
  expires_at timestamptz not null,
  created_at timestamptz not null default now()
);
