import { useTranslation } from 'react-i18next';
import { Alert } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { useCancelStory } from '../api/cancel-story.ts';
import { useDeleteStory } from '../api/delete-story.ts';
import { useStories } from '../api/get-stories.ts';
import { errorTextKey } from '../../../lib/error-text.ts';
import { StoryCard } from './story-card.tsx';

/** The user's stories, newest first; polled every second while any is queued or rendering. */
export function StoryList() {
  const { t } = useTranslation();
  const stories = useStories();
  const cancel = useCancelStory();
  const remove = useDeleteStory();
  const actionError = cancel.error ?? remove.error;
  const pendingId = cancel.isPending
    ? cancel.variables
    : remove.isPending
      ? remove.variables
      : null;

  return (
    <section aria-labelledby="stories-list-title" className="mt-10">
      <h2 id="stories-list-title" className="text-lg font-semibold text-slate-900">
        {t('stories.list.title')}
      </h2>
      {actionError && (
        <div className="mt-3">
          <Alert tone="error">{t(errorTextKey(actionError, 'stories'))}</Alert>
        </div>
      )}
      {stories.isPending ? (
        <div className="mt-6 flex justify-center text-brand-600" role="status">
          <Spinner className="h-7 w-7" />
          <span className="sr-only">{t('app.loading')}</span>
        </div>
      ) : stories.isError ? (
        <div className="mt-4 flex flex-wrap items-center gap-3">
          <Alert tone="error">
            {stories.error instanceof ApiError
              ? t(stories.error.translationKey)
              : t('stories.list.loadError')}
          </Alert>
          <Button variant="secondary" onClick={() => void stories.refetch()}>
            {t('stories.list.retry')}
          </Button>
        </div>
      ) : stories.data.length === 0 ? (
        <p className="mt-4 rounded-2xl border-2 border-dashed border-slate-200 px-6 py-10 text-center text-sm text-slate-500">
          {t('stories.list.empty')}
        </p>
      ) : (
        <ul className="mt-4 grid grid-cols-2 gap-3 sm:grid-cols-3 sm:gap-4 lg:grid-cols-4">
          {stories.data.map((story, index) => (
            <li key={story.id}>
              <StoryCard
                story={story}
                number={stories.data.length - index}
                busy={pendingId === story.id}
                onCancel={() => cancel.mutate(story.id)}
                onDelete={() => remove.mutate(story.id)}
              />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
