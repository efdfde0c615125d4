import type { MemeAnalysis, MemeLayout } from '@cadence/shared/schemas/meme';
import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert } from '../../../components/ui/alert.tsx';
import { SparklesIcon } from '../../../components/ui/icons.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { useVideoUploads } from '../../../lib/upload.ts';
import { useUploadGuard } from '../../../lib/upload-guard.tsx';
import { useCreateMemeAnalysis } from '../api/create-meme-analysis.ts';
import { errorTextKey } from '../../../lib/error-text.ts';
import { hasMemeSource, memeAnalysisRequest, type SourceMode } from '../meme-request.ts';
import { LayoutPicker } from './layout-picker.tsx';
import { SourceFileField, SourceTabs, YouTubeUrlField } from './source-fields.tsx';

/**
 * The request: a YouTube link (checked by the rule the API enforces, packages/shared's
 * youtube-url.ts: YouTube hosts and a video id only; red message under the field) or an uploaded
 * file, and the vertical layout. 'Détecter les memes' is disabled while the source is
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
  // Leaving the page would stop the upload: asks first.
  const guard = useUploadGuard([uploads]);
  const hintId = useId();

  const upload = uploads.items.at(-1) ?? null;
  const mediaId = upload?.status === 'done' ? upload.mediaId : null;
  const input = { mode, url, mediaId, layout };
  const busy = running || create.isPending;
  const hasSource = hasMemeSource(input);
  const serverUrlError =
    create.error instanceof ApiError && create.error.fields['source.url'] !== undefined;
  const showUrlError = mode === 'youtube' && (urlInvalid || serverUrlError);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    const request = memeAnalysisRequest(input);
    if (request === null) return;
    create.reset();
    if (request === 'invalid-url') {
      setUrlInvalid(true);
      return;
    }
    create.mutate(request, { onSuccess: onCreated });
  };

  return (
    <>
      <form
        onSubmit={submit}
        noValidate
        aria-label={t('memes.form.label')}
        className="rounded-2xl bg-white p-5 shadow-sm ring-1 ring-slate-200 sm:p-6"
      >
        <SourceTabs mode={mode} onModeChange={onModeChange} />

        <div className="mt-5">
          {mode === 'youtube' ? (
            <YouTubeUrlField
              value={url}
              onChange={(next) => {
                setUrl(next);
                setUrlInvalid(false);
                if (serverUrlError) create.reset();
              }}
              invalid={showUrlError}
              hintId={hintId}
            />
          ) : (
            <SourceFileField
              upload={upload}
              onChoose={(file) => {
                // One source at a time: a new choice replaces the previous file.
                uploads.items.forEach((item) => uploads.remove(item.key));
                uploads.add([file]);
              }}
              onRemove={(key) => uploads.remove(key)}
              disabled={busy}
            />
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

        <SubmitRow busy={busy} hasSource={hasSource} hintId={hintId} />

        {create.isError && !serverUrlError && (
          <div className="mt-4">
            <Alert tone="error">{t(errorTextKey(create.error, 'memes'))}</Alert>
          </div>
        )}
      </form>
      {guard.dialog}
    </>
  );
}

/** Why the form cannot be sent yet (no source), and 'Détecter les memes' or its progress. */
function SubmitRow({
  busy,
  hasSource,
  hintId,
}: {
  busy: boolean;
  hasSource: boolean;
  hintId: string;
}) {
  const { t } = useTranslation();
  return (
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
  );
}
