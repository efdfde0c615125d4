import { useId, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { FilmIcon, LinkIcon, UploadIcon, XIcon } from '../../../components/ui/icons.tsx';
import { useUploadProblems } from '../../../lib/error-text.ts';
import type { UploadItem } from '../../../lib/upload.ts';
import { UploadProgress } from '../../../lib/upload-progress.tsx';
import type { SourceMode } from '../meme-request.ts';

const tabClass = (active: boolean) =>
  `flex flex-1 cursor-pointer items-center justify-center gap-2 rounded-md px-3 py-2 text-sm font-medium transition has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-brand-500 ${
    active ? 'bg-white text-slate-900 shadow-sm' : 'text-slate-600 hover:text-slate-900'
  }`;

/** 'Lien YouTube' / 'Importer un fichier': two radios styled as tabs. */
export function SourceTabs({
  mode,
  onModeChange,
}: {
  mode: SourceMode;
  onModeChange: (mode: SourceMode) => void;
}) {
  const { t } = useTranslation();
  return (
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
  );
}

/** The YouTube link, with the red message under it when the link is one the API refuses. */
export function YouTubeUrlField({
  value,
  onChange,
  invalid,
  hintId,
}: {
  value: string;
  onChange: (url: string) => void;
  invalid: boolean;
  /** The form's hint ('add a source'), which describes the field while it is valid. */
  hintId: string;
}) {
  const { t } = useTranslation();
  const urlId = useId();
  const urlErrorId = useId();
  return (
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
        value={value}
        onChange={(event) => onChange(event.target.value)}
        placeholder={t('memes.form.urlPlaceholder')}
        aria-invalid={invalid}
        aria-describedby={invalid ? urlErrorId : hintId}
        className={`mt-2 block w-full rounded-lg border bg-white px-3.5 py-2.5 text-sm text-slate-900 shadow-sm placeholder:text-slate-500 focus:outline-none focus:ring-2 ${
          invalid
            ? 'border-red-400 focus:border-red-500 focus:ring-red-200'
            : 'border-slate-300 focus:border-brand-500 focus:ring-brand-100'
        }`}
      />
      {invalid && (
        <p id={urlErrorId} className="mt-2 text-sm text-red-600" role="alert">
          {t('memes.errors.invalidUrl')}
        </p>
      )}
    </div>
  );
}

/**
 * The uploaded source: one file at a time, its progress (UploadProgress, as every upload) or
 * refusal, and the choose button.
 */
export function SourceFileField({
  upload,
  onChoose,
  onRemove,
  disabled,
}: {
  upload: UploadItem | null;
  onChoose: (file: File) => void;
  onRemove: (key: string) => void;
  disabled: boolean;
}) {
  const { t } = useTranslation();
  const uploadProblems = useUploadProblems();
  const fileInput = useRef<HTMLInputElement>(null);
  const fileId = useId();
  const fileHintId = useId();
  return (
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
          const file = event.target.files?.[0];
          if (file) onChoose(file);
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
            <UploadProgress
              name={upload.file.name}
              upload={upload}
              statusText={
                upload.failed
                  ? upload.rejection
                    ? uploadProblems(upload.rejection, upload.maxBytes).join(' ')
                    : t('memes.form.uploadFailed')
                  : upload.status === 'done'
                    ? t('memes.form.uploaded')
                    : t('memes.form.uploading', { percent: Math.round(upload.progress * 100) })
              }
              showBar={upload.status === 'uploading'}
              trackClassName="mt-1.5 h-1.5 bg-slate-200"
              barClassName="bg-brand-500"
              statusClassName={`mt-1 text-xs ${upload.failed ? 'text-red-600' : 'text-slate-500'}`}
              detailClassName="mt-0.5 text-xs tabular-nums text-slate-500"
            />
          </div>
          <button
            type="button"
            onClick={() => onRemove(upload.key)}
            disabled={disabled}
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
        disabled={disabled}
        aria-describedby={fileHintId}
        className="mt-3 inline-flex items-center gap-2 rounded-lg bg-white px-4 py-2.5 text-sm font-semibold text-slate-800 ring-1 ring-inset ring-slate-300 transition hover:bg-slate-50 disabled:cursor-not-allowed disabled:text-slate-400"
      >
        <UploadIcon className="h-4 w-4" />
        {upload ? t('memes.form.changeFile') : t('memes.form.chooseFile')}
      </button>
    </div>
  );
}
