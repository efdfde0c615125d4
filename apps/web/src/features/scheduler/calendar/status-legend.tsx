import type { TFunction } from 'i18next';
import { memo } from 'react';
import { postBadges, statusLooks } from '../posts/status-badge.tsx';

/**
 * What the chips' colours and icons mean: each status named next to a small chip in its colours
 * with its icon (the chips' and the phone's dots' own table, so the legend cannot drift from it).
 */
export const StatusLegend = memo(function StatusLegend({ t }: { t: TFunction }) {
  return (
    <ul
      aria-label={t('calendar.legend')}
      className="flex flex-wrap items-center gap-x-3 gap-y-1 text-xs text-slate-600"
      data-testid="status-legend"
    >
      {postBadges.map((badge) => {
        const { tone, mark, icon: StatusIcon, labelKey } = statusLooks[badge];
        return (
          <li key={badge} className="inline-flex items-center gap-1.5" data-status={badge}>
            <span
              className={`inline-flex h-4 shrink-0 items-stretch gap-0.5 rounded py-0.5 pl-0.5 pr-1 ring-1 ring-inset ${tone}`}
              aria-hidden="true"
            >
              <span className={`w-1 rounded-full ${mark}`} />
              <StatusIcon className="h-3 w-3" />
            </span>
            {t(labelKey)}
          </li>
        );
      })}
    </ul>
  );
});
