import type { TFunction } from 'i18next';
import { memo } from 'react';
import {
  postBadges,
  statusDotTones,
  statusLabelKeys,
  statusTones,
} from '../components/status-badge.tsx';

/**
 * What the chips' colours mean: each status named next to a small chip in its colours (the
 * chips' and the phone's dots' own tables, so the legend cannot drift from them).
 */
export const StatusLegend = memo(function StatusLegend({ t }: { t: TFunction }) {
  return (
    <ul
      aria-label={t('calendar.legend')}
      className="flex flex-wrap items-center gap-x-3 gap-y-1 text-xs text-slate-600"
      data-testid="status-legend"
    >
      {postBadges.map((badge) => (
        <li key={badge} className="inline-flex items-center gap-1.5" data-status={badge}>
          <span
            className={`inline-flex h-3.5 w-5 shrink-0 items-stretch rounded py-0.5 pl-0.5 ring-1 ring-inset ${statusTones[badge]}`}
            aria-hidden="true"
          >
            <span className={`w-1 rounded-full ${statusDotTones[badge]}`} />
          </span>
          {t(statusLabelKeys[badge])}
        </li>
      ))}
    </ul>
  );
});
