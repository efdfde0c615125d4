-- A schedule remembers the Idempotency-Key of the request that made it (and a fingerprint of that
-- request), so that the same request sent again — a double click, or a retry after an answer lost
-- on the way — answers the schedule it made instead of making another (decision 044). Unique per
-- person: two requests with one key cannot both insert, whichever process runs them.
alter table schedules add column request_key text;
alter table schedules add column request_fingerprint text;
create unique index schedules_request_key on schedules (user_id, request_key)
  where request_key is not null;
