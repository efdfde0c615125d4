-- The daily digest goes out at 07:00 in each person's own time zone (notifications.digest runs
-- hourly and picks those whose local hour is 7). `last_digest_on` is the local date of the last
-- digest run for the person: the hourly job claims it with a conditional update, so a retried or
-- doubled run, or the repeated 01:00-02:00 hour of a DST change, sends at most one digest a day.
alter table notification_settings add column last_digest_on date;
