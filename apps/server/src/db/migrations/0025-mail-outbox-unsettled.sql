-- mail.purge gives up, every hour, messages neither sent nor given up whose delivery job pg-boss
-- no longer holds (jobs/orphans.ts). Those rows are a handful among 30 days of sent mail: a partial
-- index finds them without reading the outbox.
create index mail_outbox_unsettled_idx on mail_outbox (created_at)
  where sent_at is null and failed_at is null;
