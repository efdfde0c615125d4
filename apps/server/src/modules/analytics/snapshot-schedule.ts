const HOUR = 3_600_000;

/** When a video's counts should be read next: hourly for its first 48 h, daily after. */
export function nextSnapshotAt(postedAt: Date, now: Date): Date {
  const ageMs = now.getTime() - postedAt.getTime();
  if (ageMs < 48 * HOUR) {
    const nextHour = Math.floor(Math.max(0, ageMs) / HOUR) + 1;
    return new Date(postedAt.getTime() + nextHour * HOUR);
  }
  return new Date(now.getTime() + 24 * HOUR);
}

/**
 * Views at exactly 24 h of age, from the last observation before that age and one after it
 * (linear between the two); null until a video has been seen on both sides of its 24th hour.
 */
export function viewsAt24h(
  postedAt: Date,
  before: { at: Date; views: number } | null,
  after: { at: Date; views: number },
): number | null {
  const day = postedAt.getTime() + 24 * HOUR;
  if (before === null || before.at.getTime() >= day || after.at.getTime() < day) return null;
  const span = after.at.getTime() - before.at.getTime();
  if (span <= 0) return before.views;
  const share = (day - before.at.getTime()) / span;
  return Math.round(before.views + (after.views - before.views) * share);
}
