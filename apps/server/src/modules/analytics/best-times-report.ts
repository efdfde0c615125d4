import {
  analyseBestTimes,
  median,
  nextSlotOccurrence,
  type BestTimeObservation,
} from '@cadence/shared/analytics/best-times';
import type { BestTimes } from '@cadence/shared/schemas/analytics';
import type { AnalyticsRepository } from './repository.ts';
import { accountIdsFor, DAY, type ReportContext } from './report-scope.ts';

/** A video first seen after its 24th hour counts for best times once it is a week old. */
const SETTLED_AFTER_MS = 7 * DAY;

type AccountObservation = BestTimeObservation & { account: string };

/** Each video's 24-hour views, or its views once settled; videos with neither are left out. */
function observationsOf(
  rows: Awaited<ReturnType<AnalyticsRepository['bestTimeInputs']>>,
): AccountObservation[] {
  return rows.flatMap((row): AccountObservation[] => {
    if (row.views_at_24h !== null) {
      return [
        {
          account: row.analytics_account_id,
          postedAt: row.posted_at.getTime(),
          views: row.views_at_24h,
          basis: '24h',
        },
      ];
    }
    const seenAt = row.last_snapshot_at?.getTime() ?? 0;
    const firstSeenAge = row.first_seen_at.getTime() - row.posted_at.getTime();
    // History first seen after its 24th hour: its views once settled (a week old).
    if (firstSeenAge >= DAY && seenAt - row.posted_at.getTime() >= SETTLED_AFTER_MS) {
      return [
        {
          account: row.analytics_account_id,
          postedAt: row.posted_at.getTime(),
          views: row.view_count,
          basis: 'settled',
        },
      ];
    }
    return [];
  });
}

/** Accounts of different sizes: each video relative to its account's median of its kind. */
function relativeToAccountMedians(raw: AccountObservation[]): BestTimeObservation[] {
  const medians = new Map<string, number>();
  for (const key of new Set(raw.map((item) => `${item.account}|${item.basis}`))) {
    medians.set(
      key,
      median(
        raw.filter((item) => `${item.account}|${item.basis}` === key).map((item) => item.views),
      ),
    );
  }
  return raw.map((item) => ({
    postedAt: item.postedAt,
    views: (1000 * (item.views + 1)) / ((medians.get(`${item.account}|${item.basis}`) ?? 0) + 1),
    basis: item.basis,
  }));
}

/**
 * The heatmap and suggested slots of one account, or of all of them (each video then
 * compared with its own account's median first).
 */
export async function readBestTimes(
  context: ReportContext,
  userId: string,
  query: { accountId?: string | undefined; timeZone: string },
): Promise<BestTimes> {
  const accountIds = await accountIdsFor(context.repository, userId, query.accountId);
  const rows = await context.repository.bestTimeInputs(accountIds);
  const at = context.now();
  const raw = observationsOf(rows);
  const observations: BestTimeObservation[] =
    accountIds.length > 1 ? relativeToAccountMedians(raw) : raw;
  const result = analyseBestTimes(observations, query.timeZone);
  return {
    status: result.status,
    videosAnalysed: result.videosAnalysed,
    minimumVideos: result.minimumVideos,
    timeZone: query.timeZone,
    cells: result.cells,
    slots: result.slots.map((slot) => ({
      ...slot,
      nextAt: nextSlotOccurrence(slot, at, query.timeZone).toISOString(),
    })),
  };
}
