-- Locks on tus uploads shared by every API process (PostgreSQL only: with PGlite one process
-- serves everything and tus's in-memory lock is enough; the table then stays empty).
-- A row is a held lock. Its holder renews expires_at while its request runs, so the lock of a
-- process that died passes to the next request once the lease runs out. See
-- docs/decisions/007-upload-locks-in-postgresql.md.
create table upload_locks (
  upload_id text primary key,
  -- A random token per acquisition: only that holder renews or releases the row.
  owner text not null,
  expires_at timestamptz not null
);
