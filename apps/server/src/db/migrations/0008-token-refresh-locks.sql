-- One process at a time refreshes an account's TikTok tokens. TikTok rotates the refresh token on
-- every refresh, so a second process refreshing with the same one gets invalid_grant. A row is a
-- held lock with a lease (the database's clock decides expiry), so the lock of a process that died
-- passes on once the lease runs out. See docs/decisions/008-tiktok-token-refresh-locks.md.
create table tiktok_token_refresh_locks (
  account_id uuid primary key references tiktok_accounts (id) on delete cascade,
  -- A random token per acquisition: only that holder releases the row.
  owner text not null,
  expires_at timestamptz not null
);
