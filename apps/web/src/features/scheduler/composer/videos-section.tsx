import { useTranslation } from 'react-i18next';
import { Section } from '../components/form-controls.tsx';
import { isRefused } from './schedule-draft.ts';
import type { ScheduleFormModel } from './use-schedule-form.ts';
import { VideoField } from './video-field.tsx';

/** The form's videos, with how many there are (and how many will not be posted). */
export function VideosSection({ form }: { form: ScheduleFormModel }) {
  const { t } = useTranslation();
  const { videos, state, dispatch, message } = form;
  const refusedCount = videos.filter(isRefused).length;
  return (
    <Section
      title={t('scheduler.form.videos.label')}
      aside={
        videos.length > 0 && (
          <span className="text-xs font-medium text-slate-500">
            {t(
              videos.length === 1
                ? 'scheduler.form.videos.countOne'
                : 'scheduler.form.videos.countMany',
              { n: videos.length },
            )}
            {/* Refused files are listed (to say why) but will not be posted: say how many. */}
            {refusedCount > 0 && (
              <span className="text-red-700">
                {' · '}
                {t('scheduler.form.videos.refusedCount', { count: refusedCount })}
              </span>
            )}
          </span>
        )
      }
    >
      <VideoField
        inputId={form.ids.videos}
        videos={videos}
        captions={state.captions}
        covers={state.covers}
        onCover={(key, ms) => dispatch({ type: 'cover', key, ms })}
        error={message('videos')}
        captionErrors={(index) => message(`caption:${index}`)}
        onAdd={(files) => {
          dispatch({ type: 'videosAdded' });
          form.addVideos(files);
        }}
        onRemove={form.removeVideo}
        onCaption={(key, caption) => dispatch({ type: 'caption', key, caption })}
      />
    </Section>
  );
}
