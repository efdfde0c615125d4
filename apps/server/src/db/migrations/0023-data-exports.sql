-- 'Télécharger mes données' (issue 13, docs/decisions/036-data-export-email-change-verification.md):
-- one row per requested archive. The data-export.build job writes the ZIP to storage
-- (users/<id>/exports/<export id>.zip) and marks it ready; data-export.purge deletes the file
-- once `expires_at` has passed and marks the row expired. One export at a time per person: the
-- partial unique index refuses a second request while one is being prepared.
create table data_exports (
  id uuid primary key default gen_random_uuid(),
  user_id text not null references "user" ("id") on delete cascade,
  status text not null default 'pending'
    check (status in ('pending', 'running', 'ready', 'failed', 'expired')),
  -- 0 to 100, for the settings page while the job runs.
  progress integer not null default 0 check (progress between 0 and 100),
  storage_key text,
  size_bytes bigint,
  error text,
  created_at timestamptz not null default now(),
  ready_at timestamptz,
  expires_at timestamptz
);

create unique index data_exports_one_in_progress on data_exports (user_id)
  where status in ('pending', 'running');
create index data_exports_user_created on data_exports (user_id, created_at desc);
create index data_exports_expiry on data_exports (expires_at) where status = 'ready';

-- Email change (confirmed by a link sent to the new address): the pending request, its token
-- stored as a SHA-256 hash, single use, one hour. One pending request per person.
create table email_changes (
  user_id text primary key references "user" ("id") on delete cascade,
  new_email text not null,
  token_hash text not null unique,
  expires_at timestamptz not null,
  created_at timestamptz not null default now()
);
