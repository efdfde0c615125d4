import type { MemeAnalysis, MemeStatus } from '@cadence/shared/schemas/meme';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../../lib/format.ts';
import { useLanguage } from '../../../lib/i18n.ts';
import { useTimeZone } from '../../../lib/use-time-zone.ts';
import { analysisLabel } from '../analysis-label.ts';

const badgeTone: Record<MemeStatus, string> = {
  queued: 'bg-slate-100 text-slate-700 ring-slate-200',
  downloading: 'bg-brand-50 text-brand-700 ring-brand-100',
  analysing: 'bg-brand-50 text-brand-700 ring-brand-100',
  compiling: 'bg-brand-50 text-brand-700 ring-brand-100',
  completed: 'bg-emerald-50 text-emerald-700 ring-emerald-200',
  failed: 'bg-red-50 text-red-700 ring-red-200',
  cancelled: 'bg-slate-100 text-slate-600 ring-slate-200',
};

/** The user's previous analyses, to reopen one (newest first). */
export function RecentAnalyses({
  analyses,
  currentId,
  onOpen,
}: {
  analyses: MemeAnalysis[];
  currentId: string | null;
  onOpen: (id: string) => void;
}) {
  const { t } = useTranslation();
  const { language } = useLanguage();
  const { timeZone } = useTimeZone();
  if (analyses.length === 0) return null;
  return (
    <section
      aria-labelledby="memes-recent-title"
      className="rounded-2xl bg-white p-5 shadow-sm ring-1 ring-slate-200 sm:p-6"
    >
      <h2 id="memes-recent-title" className="text-base font-semibold text-slate-900">
        {t('memes.recent.title')}
      </h2>
      <ul className="-mx-2 mt-3 space-y-1">
        {analyses.slice(0, 8).map((analysis) => {
          const title = analysisLabel(analysis, t('memes.recent.untitled'));
          const current = analysis.id === currentId;
          return (
            <li key={analysis.id}>
              <button
                type="button"
                onClick={() => onOpen(analysis.id)}
                aria-current={current ? 'true' : undefined}
                className={`flex w-full items-center gap-3 rounded-lg px-2 py-2 text-left transition hover:bg-slate-50 ${
                  current ? 'bg-slate-50' : ''
                }`}
              >
                <span className="min-w-0 flex-1">
                  {/* Named by its words, 'Ouvrir l'analyse' read first: a label of its own
                      would leave out the date and status shown (WCAG 2.5.3, label in name). */}
                  <span className="sr-only">{t('memes.recent.open')} </span>
                  <span className="block truncate text-sm font-medium text-slate-900">{title}</span>
                  <span className="block text-xs text-slate-500">
                    {formatDateTime(analysis.createdAt, language, timeZone)}
                  </span>
                </span>
                <span
                  className={`shrink-0 rounded-full px-2 py-0.5 text-xs font-semibold ring-1 ring-inset ${badgeTone[analysis.status]}`}
                >
                  {t(`memes.status.${analysis.status}`)}
                </span>
              </button>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
