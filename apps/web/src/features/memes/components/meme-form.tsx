import type { MemeAnalysis, MemeLayout } from '@cadence/shared/schemas/meme';
import { isYouTubeUrl } from '@cadence/shared/youtube-url';
import { useId, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert } from '../../../components/ui/alert.tsx';
import {
  FilmIcon,
  LinkIcon,
  SparklesIcon,
  UploadIcon,
  XIcon,
} from '../../../components/ui/icons.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { useUploadProblems } from '../../../lib/upload-messages.ts';
import { useVideoUploads } from '../../../lib/upload.ts';
import { useCreateMemeAnalysis } from '../api/create-meme-analysis.ts';
import { errorMessageKey } from '../error-message.ts';
import { LayoutPicker } from './layout-picker.tsx';

export type SourceMode = 'youtube' | 'file';

/**
 * The request: a YouTube link (checked as the spec says, red message under the field) or an
 * uploaded file, and the vertical layout. 'Détecter les memes' is disabled while the source is
 * missing or an analysis runs, and then reads 'Analyse en cours...'.
 */
export function MemeForm({
  mode,
  onModeChange,
  running,
  onCreated,
}: {
  mode: SourceMode;
  onModeChange: (mode: SourceMode) => void;
  /** The shown analysis is still queued or working. */
  running: boolean;
  onCreated: (analysis: MemeAnalysis) => void;
}) {
  const { t } = useTranslation();
  const [url, setUrl] = useState('');
  const [urlInvalid, setUrlInvalid] = useState(false);
  const [layout, setLayout] = useState<MemeLayout>('crop');
  const create = useCreateMemeAnalysis();
  const uploads = useVideoUploads({ purpose: 'source' });
  const uploadProblems = useUploadProblems();
  const fileInput = useRef<HTMLInputElement>(null);
  const urlId = useId();
  const urlErrorId = useId();
  const fileId = useId();
  const fileHintId = useId();
  const hintId = useId();

  const upload = uploads.items.at(-1) ?? null;
  const mediaId = upload?.status === 'done' ? upload.mediaId : null;
  const busy = running || create.isPending;
  const hasSource = mode === 'youtube' ? url.trim() !== '' : mediaId !== null;
  const serverUrlError =
    create.error instanceof ApiError && create.error.fields['source.url'] !== undefined;
  const showUrlError = mode === 'youtube' && (urlInvalid || serverUrlError);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (busy || !hasSource) return;
    create.reset();
    if (mode === 'youtube') {
      const trimmed = url.trim();
      if (!isYouTubeUrl(trimmed)) {
        setUrlInvalid(true);
        return;
      }
      create.mutate(
        { source: { type: 'youtube', url: trimmed }, layout },
        { onSuccess: onCreated },
      );
    } else if (mediaId) {
      create.mutate({ source: { type: 'media', mediaId }, layout }, { onSuccess: onCreated });
    }
  };

  const chooseFiles = (files: FileList | null) => {
    const file = files?.[0];
    if (!file) return;
    // One source at a time: a new choice replaces the previous file.
    uploads.items.forEach((item) => uploads.remove(item.key));
    uploads.add([file]);
  };

  const tabClass = (active: boolean) =>
    `flex flex-1 cursor-pointer items-center justify-center gap-2 rounded-md px-3 py-2 text-sm font-medium transition has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-brand-500 ${
      active ? 'bg-white text-slate-900 shadow-sm' : 'text-slate-600 hover:text-slate-900'
    }`;

  return (
    <form
      onSubmit={submit}
      noValidate
      aria-label={t('memes.form.label')}
      className="rounded-2xl bg-white p-5 shadow-sm ring-1 ring-slate-200 sm:p-6"
    >
      <fieldset>
        <legend className="sr-only">{t('memes.form.sourceLabel')}</legend>
        <div className="flex gap-1 rounded-lg bg-slate-100 p-1">
          <label className={tabClass(mode === 'youtube')}>
            <input
              type="radio"
              name="meme-source"
              value="youtube"
              checked={mode === 'youtube'}
              onChange={() => onModeChange('youtube')}
              className="sr-only"
            />
            <LinkIcon className="h-4 w-4" />
            {t('memes.form.sourceYoutube')}
          </label>
          <label className={tabClass(mode === 'file')}>
            <input
              type="radio"
              name="meme-source"
              value="file"
              checked={mode === 'file'}
              onChange={() => onModeChange('file')}
              className="sr-only"
            />
            <UploadIcon className="h-4 w-4" />
            {t('memes.form.sourceFile')}
          </label>
        </div>
      </fieldset>

      <div className="mt-5">
        {mode === 'youtube' ? (
          <div>
            <label htmlFor={urlId} className="block text-sm font-medium text-slate-900">
              {t('memes.form.urlLabel')}
            </label>
            <input
              id={urlId}
              type="text"
              inputMode="url"
              autoComplete="off"
              spellCheck={false}
              value={url}
              onChange={(event) => {
                setUrl(event.target.value);
                setUrlInvalid(false);
                if (serverUrlError) create.reset();
              }}
              placeholder={t('memes.form.urlPlaceholder')}
              aria-invalid={showUrlError}
              aria-describedby={showUrlError ? urlErrorId : hintId}
              className={`mt-2 block w-full rounded-lg border bg-white px-3.5 py-2.5 text-sm text-slate-900 shadow-sm placeholder:text-slate-400 focus:outline-none focus:ring-2 ${
                showUrlError
                  ? 'border-red-400 focus:border-red-500 focus:ring-red-200'
                  : 'border-slate-300 focus:border-brand-500 focus:ring-brand-100'
              }`}
            />
            {showUrlError && (
              <p id={urlErrorId} className="mt-2 text-sm text-red-600" role="alert">
                {t('memes.errors.invalidUrl')}
              </p>
            )}
          </div>
        ) : (
          <div>
            <span className="block text-sm font-medium text-slate-900" id={fileId}>
              {t('memes.form.fileLabel')}
            </span>
            <p id={fileHintId} className="mt-1 text-sm text-slate-500">
              {t('memes.form.fileHint')}
            </p>
            <input
              ref={fileInput}
              type="file"
              accept="video/*"
              className="sr-only"
              tabIndex={-1}
              aria-labelledby={fileId}
              onChange={(event) => {
                chooseFiles(event.target.files);
                event.target.value = '';
              }}
            />
            {upload ? (
              <div className="mt-3 flex items-center gap-3 rounded-lg bg-slate-50 p-3 ring-1 ring-inset ring-slate-200">
                <div className="flex h-10 w-10 shrink-0 items-center justify-center rounded-md bg-slate-900 text-white/80">
                  <FilmIcon className="h-5 w-5" />
                </div>
                <div className="min-w-0 flex-1">
                  <p className="truncate text-sm font-medium text-slate-900">{upload.file.name}</p>
                  <p
                    className={`text-xs ${upload.failed ? 'text-red-600' : 'text-slate-500'}`}
                    aria-live="polite"
                  >
                    {upload.failed
                      ? upload.rejection
                        ? uploadProblems(upload.rejection, upload.maxBytes).join(' ')
                        : t('memes.form.uploadFailed')
                      : upload.status === 'done'
                        ? t('memes.form.uploaded')
                        : t('memes.form.uploading', { percent: Math.round(upload.progress * 100) })}
                  </p>
                  {upload.status === 'uploading' && (
                    <div className="mt-1.5 h-1.5 overflow-hidden rounded-full bg-slate-200">
                      <div
                        className="h-full rounded-full bg-brand-500 transition-[width]"
                        style={{ width: `${Math.round(upload.progress * 100)}%` }}
                      />
                    </div>
                  )}
                </div>
                <button
                  type="button"
                  onClick={() => uploads.remove(upload.key)}
                  disabled={busy}
                  aria-label={t('memes.form.removeFile', { name: upload.file.name })}
                  className="rounded-md p-1.5 text-slate-500 hover:bg-slate-200 hover:text-slate-800 disabled:opacity-40"
                >
                  <XIcon className="h-4 w-4" />
                </button>
              </div>
            ) : null}
            <button
              type="button"
              onClick={() => fileInput.current?.click()}
              disabled={busy}
              aria-describedby={fileHintId}
              className="mt-3 inline-flex items-center gap-2 rounded-lg bg-white px-4 py-2.5 text-sm font-semibold text-slate-800 ring-1 ring-inset ring-slate-300 transition hover:bg-slate-50 disabled:cursor-not-allowed disabled:text-slate-400"
            >
              <UploadIcon className="h-4 w-4" />
              {upload ? t('memes.form.changeFile') : t('memes.form.chooseFile')}
            </button>
          </div>
        )}
      </div>

      <LayoutPicker
        className="mt-5"
        legend={t('memes.form.layoutLabel')}
        name="meme-layout"
        value={layout}
        onChange={setLayout}
        disabled={busy}
      />

      <div className="mt-6 flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
        <p id={hintId} className="text-xs text-slate-500">
          {!hasSource && !busy ? t('memes.form.needSource') : ''}
        </p>
        <button
          type="submit"
          disabled={busy || !hasSource}
          className="inline-flex items-center justify-center gap-2 rounded-lg bg-gradient-to-r from-brand-500 to-brand-600 px-5 py-3 text-sm font-semibold text-white shadow-sm shadow-brand-600/20 transition hover:from-brand-600 hover:to-brand-700 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-500 disabled:cursor-not-allowed disabled:from-slate-300 disabled:to-slate-300 disabled:shadow-none"
        >
          {busy ? <Spinner className="h-4 w-4" /> : <SparklesIcon className="h-4 w-4" />}
          {busy ? t('memes.form.running') : t('memes.form.submit')}
        </button>
      </div>

      {create.isError && !serverUrlError && (
        <div className="mt-4">
          <Alert tone="error">{t(errorMessageKey(create.error))}</Alert>
        </div>
      )}
    </form>
  );
}
