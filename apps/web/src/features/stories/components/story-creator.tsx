import { MAX_STORY_VIDEOS_PER_PANEL } from '@cadence/shared/schemas/story';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert } from '../../../components/ui/alert.tsx';
import { SparklesIcon } from '../../../components/ui/icons.tsx';
import { PageHeader } from '../../../components/ui/page-header.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { useLanguage } from '../../../lib/i18n.ts';
import { useVideoUploads } from '../../../lib/upload.ts';
import { useUploadGuard } from '../../../lib/upload-guard.tsx';
import { useCreateStories } from '../api/create-stories.ts';
import { errorTextKey } from '../../../lib/error-text.ts';
import { plural } from '../plural.ts';
import { StoryList } from './story-list.tsx';
import { VideoPanel } from './video-panel.tsx';

/** Two source panels, the generate bar, and the stories being rendered or ready. */
export function StoryCreator() {
  const { t } = useTranslation();
  const { language } = useLanguage();
  // Story inputs are sources: any readable video, TikTok's limits apply to the rendered story.
  const top = useVideoUploads({ purpose: 'source' });
  const bottom = useVideoUploads({ purpose: 'source' });
  const [mixBottomAudio, setMixBottomAudio] = useState(false);
  const create = useCreateStories();
  const [generated, setGenerated] = useState<number | null>(null);
  const mixId = useId();
  const mixHintId = useId();
  const statusId = useId();

  const uploading = top.uploading || bottom.uploading;
  // Leaving the page would stop the uploads: asks first.
  const guard = useUploadGuard([top, bottom]);
  const tooMany =
    top.items.length > MAX_STORY_VIDEOS_PER_PANEL ||
    bottom.items.length > MAX_STORY_VIDEOS_PER_PANEL;
  const ready = top.doneIds.length > 0 && bottom.doneIds.length > 0;
  const canGenerate = ready && !uploading && !tooMany && !create.isPending;
  const storyCount = top.doneIds.length;
  const hint = !ready
    ? uploading
      ? t('stories.options.waitUploads')
      : t('stories.options.needBoth')
    : uploading
      ? t('stories.options.waitUploads')
      : t(
          plural(language, storyCount) === 'one'
            ? 'stories.options.summaryOne'
            : 'stories.options.summaryOther',
          { count: storyCount },
        );

  const generate = () => {
    setGenerated(null);
    create.mutate(
      { topMediaIds: top.doneIds, bottomMediaIds: bottom.doneIds, mixBottomAudio },
      { onSuccess: (stories) => setGenerated(stories.length) },
    );
  };

  return (
    <>
      <PageHeader title={t('stories.title')} description={t('stories.subtitle')} />

      <div className="grid gap-4 md:grid-cols-2 md:gap-6">
        <VideoPanel side="top" items={top.items} onAdd={top.add} onRemove={top.remove} />
        <VideoPanel
          side="bottom"
          items={bottom.items}
          onAdd={bottom.add}
          onRemove={bottom.remove}
        />
      </div>

      <div className="mt-4 flex flex-col gap-4 rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:p-5 md:mt-6 md:flex-row md:items-center md:justify-between">
        <div className="flex items-start gap-3">
          <input
            id={mixId}
            type="checkbox"
            checked={mixBottomAudio}
            onChange={(event) => setMixBottomAudio(event.target.checked)}
            aria-describedby={mixHintId}
            className="mt-0.5 h-5 w-5 shrink-0 rounded border-slate-300 accent-brand-600"
          />
          <div>
            <label htmlFor={mixId} className="text-sm font-medium text-slate-900">
              {t('stories.options.mixBottomAudio')}
            </label>
            <p id={mixHintId} className="text-sm text-slate-500">
              {t('stories.options.mixBottomAudioHint')}
            </p>
          </div>
        </div>
        <div className="flex flex-col gap-2 md:items-end">
          <button
            type="button"
            onClick={generate}
            disabled={!canGenerate}
            aria-describedby={statusId}
            className="inline-flex items-center justify-center gap-2 rounded-lg bg-gradient-to-r from-brand-500 to-brand-600 px-5 py-3 text-sm font-semibold text-white shadow-sm shadow-brand-600/20 transition hover:from-brand-600 hover:to-brand-700 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-500 disabled:cursor-not-allowed disabled:from-slate-300 disabled:to-slate-300 disabled:shadow-none"
          >
            {create.isPending ? (
              <Spinner className="h-4 w-4" />
            ) : (
              <SparklesIcon className="h-4 w-4" />
            )}
            {create.isPending ? t('stories.generating') : t('stories.generate')}
          </button>
          <p id={statusId} className="text-xs text-slate-500 md:text-right" aria-live="polite">
            {hint}
          </p>
        </div>
      </div>

      <div className="mt-4 empty:hidden">
        {create.isError && <Alert tone="error">{t(errorTextKey(create.error, 'stories'))}</Alert>}
        {generated !== null && !create.isError && (
          <Alert tone="success">
            {t(
              plural(language, generated) === 'one'
                ? 'stories.generatedOne'
                : 'stories.generatedOther',
              { count: generated },
            )}
          </Alert>
        )}
      </div>

      <StoryList />
      {guard.dialog}
    </>
  );
}
