import type { NotificationRepository, NotificationRow } from './repository.ts';

/** The digest goes out at 07:00 in the person's zone (or, after a missed tick, before noon). */
export const DIGEST_HOUR = 7;
const DIGEST_LATEST_HOUR = 12;

/** The local date ('YYYY-MM-DD') and hour (0–23) of `at` in the IANA zone `timeZone`. */
export function localClock(at: Date, timeZone: string): { date: string; hour: number } {
  let parts: Intl.DateTimeFormatPart[];
  try {
    parts = new Intl.DateTimeFormat('en-CA', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      hourCycle: 'h23',
    }).formatToParts(at);
  } catch {
    // A zone this runtime no longer knows: the person's day is counted in UTC.
    return localClock(at, 'UTC');
  }
  const part = (type: Intl.DateTimeFormatPartTypes) =>
    parts.find((candidate) => candidate.type === type)?.value ?? '00';
  return { date: `${part('year')}-${part('month')}-${part('day')}`, hour: Number(part('hour')) };
}

/**
 * The hourly digest tick: each person on the digest whose local time is between 07:00 and
 * noon and who has not had today's (their today) gets one email of what was not mailed yet.
 * The window rather than the 07:00 hour alone lets a tick missed while no worker ran be made
 * up that morning; the claimed local date keeps it to one digest a day, whichever tick or
 * worker gets there first, across DST changes too (the date, not the hour, is compared).
 */
export async function sendDigests(
  repository: NotificationRepository,
  mailRows: (userId: string, rows: NotificationRow[], digest: boolean) => Promise<void>,
  now: Date,
): Promise<number> {
  let sent = 0;
  for (const person of await repository.digestPeople()) {
    const local = localClock(now, person.timeZone ?? 'UTC');
    if (local.hour < DIGEST_HOUR || local.hour >= DIGEST_LATEST_HOUR) continue;
    if (!(await repository.claimDigestDay(person.user_id, local.date))) continue;
    const candidates = await repository.digestCandidates(person.user_id);
    const claimed = await repository.claimForMail(candidates.map((row) => row.id));
    if (claimed.length === 0) continue;
    claimed.sort((a, b) => a.created_at.getTime() - b.created_at.getTime());
    await mailRows(person.user_id, claimed, true);
    sent++;
  }
  return sent;
}
