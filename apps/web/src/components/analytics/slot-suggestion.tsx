import { describeSlot, wallClock } from '@cadence/shared/analytics/best-times';
import { useTranslation } from 'react-i18next';
import { useAnalyticsAccounts, useBestTimes } from '../../lib/analytics.ts';
import { useLanguage } from '../../lib/i18n.ts';

export interface SuggestedSlot {
  /** 'yyyy-MM-dd' and 'HH:MM' of the slot's next occurrence, on the clocks of `timeZone`. */
  date: string;
  time: string;
  /** The instant itself. */
  at: Date;
  /** The weekly slot (0 = Monday; hour 0–23): what a posting-slots editor keeps. */
  weekday: number;
  hour: number;
}

/**
 * The account's best times to post as one-click suggestions ('Suggéré : mardi 18:00'), for the
 * scheduler's form and the posting-slots editor. Renders nothing until the account has enough
 * history (the analytics page says why). `onUse` gets the next occurrence of the chosen slot.
 */
export function SlotSuggestion({
  accountId,
  onUse,
  timeZone,
  max = 3,
}: {
  /** A TikTok account card's id (`Account.id`, as the scheduler knows it); null: all accounts. */
  accountId: string | null;
  onUse: (slot: SuggestedSlot) => void;
  /** The person's zone (useTimeZone): the slots' weekdays and hours are on its clocks. */
  timeZone: string;
  max?: number;
}) {
  const { t } = useTranslation();
  const { locale } = useLanguage();
  const accounts = useAnalyticsAccounts({ enabled: accountId !== null });
  // The card's history is kept per TikTok user: find it (undefined while unknown or absent).
  const historyId =
    accountId === null
      ? null
      : accounts.data?.find((account) => account.accountId === accountId)?.id;
  const bestTimes = useBestTimes(historyId ?? null, timeZone, {
    enabled: historyId !== undefined,
  });
  const data = historyId === undefined ? undefined : bestTimes.data;
  if (!data || data.status !== 'ok' || data.slots.length === 0) return null;
  return (
    <ul className="flex flex-wrap gap-2" aria-label={t('analytics.bestTimes.topSlots')}>
      {data.slots.slice(0, max).map((slot) => {
        const words = describeSlot(slot, locale);
        const at = new Date(slot.nextAt);
        return (
          <li key={`${slot.weekday}-${slot.hour}`}>
            <button
              type="button"
              className="rounded-full bg-sky-50 px-3 py-1 text-xs font-semibold text-sky-800 ring-1 ring-inset ring-sky-200 hover:bg-sky-100"
              aria-label={t('analytics.suggestion.use', { slot: words })}
              onClick={() =>
                onUse({ ...wallClock(at, timeZone), at, weekday: slot.weekday, hour: slot.hour })
              }
            >
              {t('analytics.suggestion.label', { slot: words })}
            </button>
          </li>
        );
      })}
    </ul>
  );
}
