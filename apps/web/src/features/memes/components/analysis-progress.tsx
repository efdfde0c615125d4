import type { MemeAnalysis, MemeStatus } from '@cadence/shared/schemas/meme';
import { useTranslation } from 'react-i18next';
import { CheckIcon, XIcon } from '../../../components/ui/icons.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { ProgressBar } from '../../../components/ui/progress-bar.tsx';
import { analysisLabel } from '../analysis-label.ts';

type StageKey = 'download' | 'upload' | 'analysis' | 'compilation';
type StageState = 'done' | 'current' | 'waiting';

const order: Record<MemeStatus, number> = {
  queued: 0,
  downloading: 1,
  analysing: 2,
  compiling: 3,
  completed: 4,
  failed: 4,
  cancelled: 4,
};
const stageRank: Record<StageKey, number> = { download: 1, upload: 1, analysis: 2, compilation: 3 };

function stageState(analysis: MemeAnalysis, stage: StageKey): StageState {
  if (stage === 'upload') return 'done';
  const rank = order[analysis.status];
  if (rank > stageRank[stage]) return 'done';
  return rank === stageRank[stage] ? 'current' : 'waiting';
}

/** Real progress, stage by stage (download for links, analysis, compilation), with cancel. */
export function AnalysisProgress({
  analysis,
  onCancel,
  cancelling,
}: {
  analysis: MemeAnalysis;
  onCancel: () => void;
  cancelling: boolean;
}) {
  const { t } = useTranslation();
  const stages: StageKey[] = [
    analysis.source.type === 'youtube' ? 'download' : 'upload',
    'analysis',
    'compilation',
  ];
  const percent = Math.round(analysis.progress * 100);

  return (
    <section
      aria-label={t('memes.stages.label')}
      className="rounded-2xl bg-white p-5 shadow-sm ring-1 ring-slate-200 sm:p-6"
    >
      <div className="flex items-start justify-between gap-4">
        <div className="min-w-0">
          <p className="truncate font-semibold text-slate-900">
            {analysisLabel(analysis, t('memes.recent.untitled'))}
          </p>
          <p className="mt-0.5 text-sm text-slate-500" aria-live="polite">
            {analysis.status === 'queued'
              ? t('memes.stages.queued')
              : `${t(`memes.status.${analysis.status}`)} · ${t('memes.stages.percent', { percent })}`}
          </p>
        </div>
        <button
          type="button"
          onClick={onCancel}
          disabled={cancelling}
          className="inline-flex shrink-0 items-center gap-1.5 rounded-lg px-3 py-2 text-sm font-semibold text-slate-700 ring-1 ring-inset ring-slate-300 transition hover:bg-slate-50 disabled:cursor-not-allowed disabled:text-slate-400"
        >
          <XIcon className="h-4 w-4" />
          {t('memes.cancel')}
        </button>
      </div>
      <ol className="mt-5 space-y-4">
        {stages.map((stage) => {
          const state = stageState(analysis, stage);
          return (
            <li key={stage} className="flex items-center gap-3">
              <span
                className={`flex h-8 w-8 shrink-0 items-center justify-center rounded-full ${
                  state === 'done'
                    ? 'bg-emerald-100 text-emerald-700'
                    : state === 'current'
                      ? 'bg-brand-50 text-brand-600'
                      : 'bg-slate-100 text-slate-600'
                }`}
                aria-hidden="true"
              >
                {state === 'done' ? (
                  <CheckIcon className="h-4 w-4" />
                ) : state === 'current' ? (
                  <Spinner className="h-4 w-4" />
                ) : (
                  <span className="h-2 w-2 rounded-full bg-current" />
                )}
              </span>
              <div className="min-w-0 flex-1">
                <div className="flex items-baseline justify-between gap-3 text-sm">
                  <span
                    className={
                      state === 'waiting' ? 'text-slate-500' : 'font-medium text-slate-900'
                    }
                  >
                    {t(`memes.stages.${stage}`)}
                  </span>
                  <span className="shrink-0 tabular-nums text-slate-500">
                    {state === 'done'
                      ? t('memes.stages.done')
                      : state === 'current'
                        ? t('memes.stages.percent', { percent })
                        : t('memes.stages.waiting')}
                  </span>
                </div>
                <ProgressBar
                  className="mt-1.5 h-1.5 bg-slate-100"
                  label={t(`memes.stages.${stage}`)}
                  percent={state === 'done' ? 100 : state === 'current' ? percent : 0}
                  barClassName={`duration-500 ${
                    state === 'done'
                      ? 'bg-emerald-500'
                      : 'bg-gradient-to-r from-brand-500 to-accent-500'
                  }`}
                />
              </div>
            </li>
          );
        })}
      </ol>
    </section>
  );
}
