import type { MemeAnalysis, MemeExtract, MemeLayout } from '@cadence/shared/schemas/meme';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Alert } from '../../../components/ui/alert.tsx';
import {
  CalendarIcon,
  DownloadIcon,
  FilmIcon,
  RefreshIcon,
} from '../../../components/ui/icons.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { useRecompileMemeAnalysis } from '../api/recompile-meme-analysis.ts';
import { errorTextKey } from '../../../lib/error-text.ts';
import { initialSelection, selectionSummary, toggleExtract } from '../extract-selection.ts';
import { formatTimestamp } from '../../../lib/format-time.ts';
import { LayoutPicker } from './layout-picker.tsx';

/**
 * A finished analysis: the compilation (preview, download, schedule) and its extracts with
 * timestamps, score and picture; unticking extracts (or changing the layout) and recompiling
 * makes a new compilation from the same analysis.
 */
export function AnalysisResult({ analysis }: { analysis: MemeAnalysis }) {
  const { t } = useTranslation();
  const [selected, setSelected] = useState(() => initialSelection(analysis));
  const [layout, setLayout] = useState<MemeLayout>(analysis.layout);
  const recompile = useRecompileMemeAnalysis();
  const hintId = useId();
  const result = analysis.result;
  const { selectedSeconds, changed, selectedIndexes } = selectionSummary(
    analysis,
    selected,
    layout,
  );
  const canRecompile = changed && selected.size > 0 && !recompile.isPending;

  return (
    <section
      aria-labelledby="memes-result-title"
      className="rounded-2xl bg-white p-5 shadow-sm ring-1 ring-slate-200 sm:p-6"
    >
      <div className="min-w-0">
        <h2 id="memes-result-title" className="text-lg font-semibold text-slate-900">
          {t('memes.result.title')}
        </h2>
        {analysis.title && <p className="truncate text-sm text-slate-500">{analysis.title}</p>}
      </div>

      {analysis.shorterThanTarget && (
        <div className="mt-4">
          <Alert tone="info">{t('memes.result.shorter')}</Alert>
        </div>
      )}

      <div className="mt-5 grid gap-6 md:grid-cols-[minmax(0,15rem)_minmax(0,1fr)]">
        <CompilationPreview result={result} />

        <div className="min-w-0">
          <h3 className="text-sm font-semibold text-slate-900">{t('memes.extracts.title')}</h3>
          <p id={hintId} className="mt-0.5 text-xs text-slate-500">
            {t('memes.extracts.hint')}
          </p>
          <FillerNote extracts={analysis.extracts} />
          <ul className="mt-3 space-y-2">
            {analysis.extracts.map((extract) => (
              <li key={extract.index}>
                <ExtractItem
                  extract={extract}
                  checked={selected.has(extract.index)}
                  onToggle={() => setSelected((current) => toggleExtract(current, extract.index))}
                  hintId={hintId}
                />
              </li>
            ))}
          </ul>

          <LayoutPicker
            className="mt-5"
            legend={t('memes.extracts.layoutLabel')}
            name={`meme-recompile-layout-${analysis.id}`}
            value={layout}
            onChange={setLayout}
            disabled={recompile.isPending}
          />

          <div className="mt-4 flex flex-col gap-2 sm:flex-row sm:items-center sm:justify-between">
            <p className="text-xs tabular-nums text-slate-500" aria-live="polite">
              {selected.size === 0
                ? t('memes.errors.selectExtract')
                : t('memes.extracts.selectedCount', {
                    count: selected.size,
                    total: analysis.extracts.length,
                    duration: formatTimestamp(selectedSeconds),
                  })}
            </p>
            <button
              type="button"
              disabled={!canRecompile}
              onClick={() =>
                recompile.mutate({
                  id: analysis.id,
                  selectedIndexes,
                  layout,
                })
              }
              className="inline-flex items-center justify-center gap-2 rounded-lg bg-slate-900 px-4 py-2.5 text-sm font-semibold text-white shadow-sm transition hover:bg-slate-800 disabled:cursor-not-allowed disabled:bg-slate-300"
            >
              {recompile.isPending ? (
                <Spinner className="h-4 w-4" />
              ) : (
                <RefreshIcon className="h-4 w-4" />
              )}
              {recompile.isPending
                ? t('memes.extracts.recompiling')
                : t('memes.extracts.recompile')}
            </button>
          </div>
          {recompile.isError && (
            <div className="mt-3">
              <Alert tone="error">{t(errorTextKey(recompile.error, 'memes'))}</Alert>
            </div>
          )}
        </div>
      </div>
    </section>
  );
}

/** The compilation: its player, length, download and 'schedule it' link. */
function CompilationPreview({ result }: { result: MemeAnalysis['result'] }) {
  const { t } = useTranslation();
  return (
    <div className="mx-auto w-full max-w-[15rem]">
      <div className="aspect-[9/16] overflow-hidden rounded-xl bg-slate-900">
        {result ? (
          // A compilation of the user's own video: there is no caption track to offer.
          // eslint-disable-next-line jsx-a11y/media-has-caption
          <video
            key={result.id}
            src={result.fileUrl}
            poster={result.thumbnailUrl ?? undefined}
            controls
            playsInline
            preload="metadata"
            aria-label={t('memes.result.previewLabel')}
            className="h-full w-full object-contain"
          />
        ) : (
          <div className="flex h-full items-center justify-center text-white/70">
            <FilmIcon className="h-8 w-8" />
          </div>
        )}
      </div>
      {result && (
        <>
          <p className="mt-2 text-center text-xs tabular-nums text-slate-500">
            {t('memes.result.duration', { duration: formatTimestamp(result.durationSeconds) })}
          </p>
          <div className="mt-3 flex flex-col gap-2">
            <a
              href={`${result.fileUrl}?download=1`}
              download
              className="inline-flex items-center justify-center gap-2 rounded-lg bg-gradient-to-r from-brand-500 to-brand-600 px-4 py-2.5 text-sm font-semibold text-white shadow-sm shadow-brand-600/20 transition hover:from-brand-600 hover:to-brand-700 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-500"
            >
              <DownloadIcon className="h-4 w-4" />
              {t('memes.result.download')}
            </a>
            <Link
              to={`/scheduler?media=${encodeURIComponent(result.id)}`}
              className="inline-flex items-center justify-center gap-2 rounded-lg bg-white px-4 py-2.5 text-sm font-semibold text-slate-800 ring-1 ring-inset ring-slate-300 transition hover:bg-slate-50"
            >
              <CalendarIcon className="h-4 w-4" />
              {t('memes.result.schedule')}
            </Link>
          </div>
        </>
      )}
    </div>
  );
}

/**
 * Says how many moments were really detected when calm stretches fill the rest of the minute,
 * so filler is never taken for a highlight (nothing to say when every extract is one).
 */
function FillerNote({ extracts }: { extracts: readonly MemeExtract[] }) {
  const { t } = useTranslation();
  const highlights = extracts.filter((extract) => extract.highlight).length;
  if (highlights === extracts.length) return null;
  return (
    <p className="mt-2 text-xs text-slate-600">
      {highlights === 0
        ? t('memes.extracts.noHighlights')
        : t('memes.extracts.fillerNote', { count: highlights })}
    </p>
  );
}

/** One extract: ticked to keep it in the next compilation, with its range, picture and score. */
function ExtractItem({
  extract,
  checked,
  onToggle,
  hintId,
}: {
  extract: MemeExtract;
  checked: boolean;
  onToggle: () => void;
  hintId: string;
}) {
  const { t } = useTranslation();
  const start = formatTimestamp(extract.startSeconds);
  const end = formatTimestamp(extract.endSeconds);
  const score = Math.round(extract.score * 100);
  return (
    <label
      className={`flex cursor-pointer items-center gap-3 rounded-xl p-2 ring-1 ring-inset transition has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-brand-500 ${
        checked ? 'bg-white ring-slate-200' : 'bg-slate-50 ring-slate-100 opacity-70'
      }`}
    >
      <input
        type="checkbox"
        checked={checked}
        onChange={onToggle}
        aria-label={t('memes.extracts.item', {
          number: extract.index + 1,
          start,
          end,
        })}
        aria-describedby={hintId}
        className="ml-1 h-5 w-5 shrink-0 rounded border-slate-300 accent-brand-600"
      />
      <span className="h-12 w-20 shrink-0 overflow-hidden rounded-md bg-slate-200">
        {extract.thumbnailUrl && (
          <img
            src={extract.thumbnailUrl}
            alt=""
            loading="lazy"
            className="h-full w-full object-cover"
          />
        )}
      </span>
      <span className="min-w-0 flex-1">
        <span className="block text-sm font-medium tabular-nums text-slate-900">
          {t('memes.extracts.range', { start, end })}
        </span>
        {extract.highlight ? (
          <span className="mt-1 flex items-center gap-2">
            <span
              className="h-1.5 w-full max-w-[8rem] overflow-hidden rounded-full bg-slate-100"
              aria-hidden="true"
            >
              <span
                className="block h-full rounded-full bg-gradient-to-r from-brand-500 to-accent-500"
                style={{ width: `${Math.max(score, 3)}%` }}
              />
            </span>
            <span className="shrink-0 text-xs tabular-nums text-slate-500">
              {t('memes.extracts.score', { score })}
            </span>
          </span>
        ) : (
          <span className="mt-1 inline-block rounded-full bg-slate-100 px-2 py-0.5 text-xs text-slate-700">
            {t('memes.extracts.filler')}
          </span>
        )}
      </span>
    </label>
  );
}
