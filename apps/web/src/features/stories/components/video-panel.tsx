import { MAX_STORY_VIDEOS_PER_PANEL } from '@cadence/shared/schemas/story';
import { useId, type ChangeEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { FilmIcon, UploadIcon, XIcon } from '../../../components/ui/icons.tsx';
import { useUploadProblems } from '../../../lib/error-text.ts';
import { useLanguage } from '../../../lib/i18n.ts';
import { UploadProgress } from '../../../lib/upload-progress.tsx';
import type { UploadItem } from '../../../lib/upload.ts';
import { plural } from '../plural.ts';

export type PanelSide = 'top' | 'bottom';

const panelText = {
  top: {
    title: 'stories.panels.top.title',
    hint: 'stories.panels.top.hint',
    importLabel: 'stories.panels.top.import',
  },
  bottom: {
    title: 'stories.panels.bottom.title',
    hint: 'stories.panels.bottom.hint',
    importLabel: 'stories.panels.bottom.import',
  },
} as const;

/** One of the two source panels: import (resumable uploads), small previews, remove on hover/focus. */
export function VideoPanel({
  side,
  items,
  onAdd,
  onRemove,
}: {
  side: PanelSide;
  items: UploadItem[];
  onAdd: (files: File[]) => void;
  onRemove: (key: string) => void;
}) {
  const { t } = useTranslation();
  const uploadProblems = useUploadProblems();
  const headingId = useId();
  const inputId = useId();

  const onChange = (event: ChangeEvent<HTMLInputElement>) => {
    const files = [...(event.target.files ?? [])];
    // Reset so choosing the same file again (after removing it) still fires a change.
    event.target.value = '';
    if (files.length > 0) onAdd(files);
  };

  const problems = items.flatMap((item) => {
    if (item.status !== 'error') return [];
    const text = uploadProblems(item.rejection, item.maxBytes).join(' ');
    return [{ key: item.key, name: item.file.name, text }];
  });

  return (
    <section
      aria-labelledby={headingId}
      className="flex flex-col rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:p-5"
    >
      <PanelHeader
        side={side}
        headingId={headingId}
        inputId={inputId}
        count={items.length}
        onChange={onChange}
      />

      {items.length === 0 ? (
        <label
          htmlFor={inputId}
          className="mt-4 flex min-h-40 flex-1 cursor-pointer flex-col items-center justify-center gap-2 rounded-xl border-2 border-dashed border-slate-200 bg-slate-50 px-4 py-8 text-center transition-colors hover:border-brand-300 hover:bg-brand-50/40"
        >
          <FilmIcon className="h-7 w-7 text-slate-400" />
          <span className="text-sm font-medium text-slate-700">{t('stories.panels.empty')}</span>
          <span className="text-xs text-slate-500">{t('stories.panels.emptyHint')}</span>
        </label>
      ) : (
        <ul className="mt-4 grid grid-cols-3 gap-2 sm:grid-cols-4 md:grid-cols-3 xl:grid-cols-4">
          {items.map((item) => (
            <li key={item.key}>
              <PanelVideo item={item} onRemove={() => onRemove(item.key)} />
            </li>
          ))}
        </ul>
      )}

      {items.length > MAX_STORY_VIDEOS_PER_PANEL && (
        <p role="alert" className="mt-3 text-sm font-medium text-red-700">
          {t('stories.panels.tooMany', { max: MAX_STORY_VIDEOS_PER_PANEL })}
        </p>
      )}
      {problems.length > 0 && (
        <ul role="alert" className="mt-3 space-y-1">
          {problems.map((problem) => (
            <li key={problem.key} className="text-xs text-red-700">
              <span className="font-semibold">{problem.name}</span> — {problem.text}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/** The panel's number, title and hint (with how many videos it holds), and its import button. */
function PanelHeader({
  side,
  headingId,
  inputId,
  count,
  onChange,
}: {
  side: PanelSide;
  headingId: string;
  inputId: string;
  count: number;
  onChange: (event: ChangeEvent<HTMLInputElement>) => void;
}) {
  const { t } = useTranslation();
  const { language } = useLanguage();
  const text = panelText[side];
  const accent = side === 'top' ? 'from-brand-500 to-brand-600' : 'from-accent-500 to-sky-600';
  // The import button goes under the title when they would leave the hint a word a line
  // (320 px): the hint keeps at least 9rem.
  return (
    <div className="flex flex-wrap items-start gap-3">
      <span
        className={`mt-0.5 flex h-9 w-9 shrink-0 items-center justify-center rounded-xl bg-gradient-to-br text-white ${accent}`}
        aria-hidden="true"
      >
        <span className="text-xs font-bold">{side === 'top' ? '1' : '2'}</span>
      </span>
      <div className="min-w-[9rem] flex-1">
        <h2 id={headingId} className="text-base font-semibold text-slate-900">
          {t(text.title)}
        </h2>
        <p className="text-sm text-slate-500">
          {t(text.hint)}
          {count > 0 && (
            <>
              {' · '}
              <span className="font-medium text-slate-700">
                {t(
                  plural(language, count) === 'one'
                    ? 'stories.panels.countOne'
                    : 'stories.panels.countOther',
                  { count },
                )}
              </span>
            </>
          )}
        </p>
      </div>
      <label
        htmlFor={inputId}
        className="inline-flex shrink-0 cursor-pointer items-center gap-2 rounded-lg bg-slate-900 px-3.5 py-2 text-sm font-semibold text-white shadow-sm transition-colors hover:bg-slate-800 has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-offset-2 has-[:focus-visible]:outline-brand-500"
      >
        <UploadIcon className="h-4 w-4" />
        {t('stories.panels.importButton')}
        <input
          id={inputId}
          type="file"
          accept="video/*"
          multiple
          onChange={onChange}
          aria-label={t(text.importLabel)}
          className="sr-only"
        />
      </label>
    </div>
  );
}

function PanelVideo({ item, onRemove }: { item: UploadItem; onRemove: () => void }) {
  const { t } = useTranslation();
  const percent = Math.round(item.progress * 100);
  const name = item.file.name;
  const status =
    item.status === 'done'
      ? t('media.uploaded')
      : item.status === 'error'
        ? t(item.rejection?.length ? 'media.refused' : 'media.failed')
        : t('media.uploading', { percent });
  return (
    <div
      className={`group relative aspect-[9/16] overflow-hidden rounded-lg bg-slate-900 ring-1 ${item.status === 'error' ? 'ring-2 ring-red-400' : 'ring-slate-200'}`}
    >
      <video
        src={item.previewUrl}
        muted
        playsInline
        preload="metadata"
        className="h-full w-full object-cover"
        aria-label={t('stories.panels.preview', { name })}
      />
      <div className="pointer-events-none absolute inset-x-0 bottom-0 bg-gradient-to-t from-slate-950/85 to-transparent px-1.5 pb-1.5 pt-5">
        <p className="truncate text-[11px] font-medium text-white" title={name}>
          {name}
        </p>
        <UploadProgress
          name={name}
          upload={item}
          statusText={status}
          showBar={item.status === 'uploading'}
          trackClassName="mt-1 h-1 bg-white/25"
          barClassName="bg-brand-500"
          statusClassName={`mt-0.5 text-[10px] font-semibold ${item.status === 'error' ? 'text-red-300' : item.status === 'done' ? 'text-emerald-300' : 'text-white/80'}`}
          detailClassName="text-[10px] leading-tight tabular-nums text-white/80"
          stacked
        />
      </div>
      <button
        type="button"
        onClick={onRemove}
        aria-label={t('media.remove', { name })}
        title={t('media.remove', { name })}
        className="absolute right-1 top-1 rounded-full bg-slate-950/70 p-1.5 text-white opacity-0 shadow transition group-hover:opacity-100 hover:bg-red-600 focus-visible:opacity-100 focus-visible:outline-2 focus-visible:outline-white pointer-coarse:opacity-100"
      >
        <XIcon className="h-3.5 w-3.5" />
      </button>
    </div>
  );
}
