import { MAX_STORY_VIDEOS_PER_PANEL } from '@cadence/shared/schemas/story';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert } from '../../../components/ui/alert.tsx';
import { PageHeader } from '../../../components/ui/page-header.tsx';
import { useLanguage } from '../../../lib/i18n.ts';
import { useVideoUploads } from '../../../lib/upload.ts';
import { useUploadGuard } from '../../../lib/upload-guard.tsx';
import { useCreateStories } from '../api/create-stories.ts';
import { errorTextKey } from '../../../lib/error-text.ts';
import { plural } from '../plural.ts';
import { GenerateBar } from './generate-bar.tsx';
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

      <GenerateBar
        mixBottomAudio={mixBottomAudio}
        onMixBottomAudioChange={setMixBottomAudio}
        canGenerate={canGenerate}
        generating={create.isPending}
        hint={hint}
        onGenerate={generate}
      />

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
