import { isActiveMemeStatus, type MemeAnalysis } from '@cadence/shared/schemas/meme';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { Alert } from '../../../components/ui/alert.tsx';
import { UploadIcon } from '../../../components/ui/icons.tsx';
import { PageHeader } from '../../../components/ui/page-header.tsx';
import { useCancelMemeAnalysis } from '../api/cancel-meme-analysis.ts';
import { useMemeAnalyses } from '../api/get-meme-analyses.ts';
import { useMemeAnalysis } from '../api/get-meme-analysis.ts';
import { errorTextKey } from '../../../lib/error-text.ts';
import { AnalysisProgress } from './analysis-progress.tsx';
import { AnalysisResult } from './analysis-result.tsx';
import { HowItWorks } from './how-it-works.tsx';
import type { SourceMode } from '../meme-request.ts';
import { MemeForm } from './meme-form.tsx';
import { RecentAnalyses } from './recent-analyses.tsx';

/** Link failures the user can get around by uploading the file they may already have. */
const uploadHelps = new Set(['downloader_missing', 'unavailable', 'network', 'failed']);

function FailureNotice({
  analysis,
  onUseUpload,
}: {
  analysis: MemeAnalysis;
  onUseUpload: () => void;
}) {
  const { t } = useTranslation();
  const reason = analysis.failReason ?? 'memes.failures.failed';
  const offerUpload =
    analysis.source.type === 'youtube' && uploadHelps.has(reason.replace('memes.failures.', ''));
  return (
    <Alert tone="error">
      <p className="font-semibold">{t('memes.failures.title')}</p>
      <p className="mt-1">{t(reason)}</p>
      {offerUpload && (
        <button
          type="button"
          onClick={onUseUpload}
          className="mt-3 inline-flex items-center gap-2 rounded-lg bg-white px-3 py-2 text-sm font-semibold text-red-800 ring-1 ring-inset ring-red-200 transition hover:bg-red-50"
        >
          <UploadIcon className="h-4 w-4" />
          {t('memes.useUpload')}
        </button>
      )}
    </Alert>
  );
}

/** The meme detector: the request form, live progress, then the result with its extracts. */
export function MemeDetector() {
  const { t } = useTranslation();
  const [searchParams, setSearchParams] = useSearchParams();
  const currentId = searchParams.get('analysis');
  const [mode, setMode] = useState<SourceMode>('youtube');
  const analyses = useMemeAnalyses();
  const current = useMemeAnalysis(currentId);
  const cancel = useCancelMemeAnalysis();
  const analysis = current.data ?? null;
  const running = analysis !== null && isActiveMemeStatus(analysis.status);
  // The open analysis is polled faster than the list: the list shows its latest state, so the
  // two never disagree (a failed result above, 'Téléchargement' in the list for 3 s).
  const recent = (analyses.data ?? []).map((entry) =>
    analysis !== null && entry.id === analysis.id ? analysis : entry,
  );

  const open = (id: string) => {
    cancel.reset();
    setSearchParams({ analysis: id });
  };

  return (
    <>
      <PageHeader title={t('memes.title')} description={t('memes.subtitle')} />
      <div className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_20rem]">
        <div className="min-w-0 space-y-6">
          <MemeForm
            mode={mode}
            onModeChange={setMode}
            running={running}
            onCreated={(created) => open(created.id)}
          />

          {current.isError && <Alert tone="error">{t(errorTextKey(current.error, 'memes'))}</Alert>}
          {cancel.isError && <Alert tone="error">{t(errorTextKey(cancel.error, 'memes'))}</Alert>}

          {analysis && running && (
            <AnalysisProgress
              analysis={analysis}
              cancelling={cancel.isPending}
              onCancel={() => cancel.mutate(analysis.id)}
            />
          )}
          {analysis?.status === 'failed' && (
            <FailureNotice analysis={analysis} onUseUpload={() => setMode('file')} />
          )}
          {analysis?.status === 'cancelled' && <Alert tone="info">{t('memes.cancelled')}</Alert>}
          {analysis && !running && analysis.extracts.length > 0 && (
            <AnalysisResult
              key={`${analysis.id}:${analysis.result?.id ?? ''}:${analysis.status}`}
              analysis={analysis}
            />
          )}
        </div>
        <aside className="min-w-0 space-y-6">
          <HowItWorks />
          <RecentAnalyses analyses={recent} currentId={currentId} onOpen={open} />
        </aside>
      </div>
    </>
  );
}
