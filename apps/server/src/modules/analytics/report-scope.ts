import { zonedSlot } from '@cadence/shared/analytics/best-times';
import type { AnalyticsQuery } from '@cadence/shared/schemas/analytics';
import { zonedDateTimeToUtc } from '@cadence/shared/schedule/planner';
import { AppError } from '../../lib/app-error.ts';
import type { AnalyticsRepository } from './repository.ts';

export const DAY = 86_400_000;

/** What every analytics read works with. */
export interface ReportContext {
  repository: AnalyticsRepository;
  now: () => number;
}

export function addDays(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY).toISOString().slice(0, 10);
}

function dayCount(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY) + 1;
}

/** The user's analytics accounts to read: one (404 unless theirs) or all of them. */
export async function accountIdsFor(
  repository: AnalyticsRepository,
  userId: string,
  accountId: string | undefined,
): Promise<string[]> {
  const accounts = await repository.accountIdsOfUser(userId);
  if (accountId === undefined) return accounts;
  if (!accounts.includes(accountId)) {
    throw new AppError('not_found', 'No such analytics account');
  }
  return [accountId];
}

export type ReportRange = ReturnType<typeof rangeOf>;

/** The query's days (in its time zone), and the UTC instants they start and end at. */
export function rangeOf(query: AnalyticsQuery, now: number) {
  const today = zonedSlot(now, query.timeZone).date;
  const span = query.period === '7d' ? 7 : query.period === '90d' ? 90 : 28;
  const from = query.period === 'custom' && query.from ? query.from : addDays(today, 1 - span);
  const to = query.period === 'custom' && query.to ? query.to : today;
  return {
    from,
    to,
    days: dayCount(from, to),
    fromUtc: zonedDateTimeToUtc(from, '00:00', query.timeZone),
    toUtc: zonedDateTimeToUtc(addDays(to, 1), '00:00', query.timeZone),
  };
}
