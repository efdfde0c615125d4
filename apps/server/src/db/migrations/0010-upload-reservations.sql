-- Space each unfinished upload holds in its owner's quota (USER_QUOTA_BYTES), from creation (the
-- declared Upload-Length) until it becomes media (the row is swapped for the media row in one
-- transaction), is refused, is terminated, or expires. A user's usage is the sum of their
-- media.size_bytes and of declared_bytes here. Creations lock the user's row first, so concurrent
-- creations on any number of API processes cannot reserve more than the quota together.
create table upload_reservations (
  -- The tus upload id ('<userId>-<32 hex>'), which is also the media id it becomes.
  upload_id text primary key,
  user_id text not null references "user" ("id") on delete cascade,
  declared_bytes bigint not null check (declared_bytes >= 0),
  created_at timestamptz not null default now(),
  -- Pushed back by every PATCH. Once past, the upload is dead (a PATCH can no longer revive it)
  -- and the cleanup job deletes its bytes and this row.
  expires_at timestamptz not null
);
create index upload_reservations_user on upload_reservations (user_id);
create index upload_reservations_expires on upload_reservations (expires_at);
