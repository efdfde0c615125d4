import type { Story, StoryStatus } from '@cadence/shared/schemas/story';
import type { TranslationKey } from '@cadence/shared/translation-key';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { buttonClassName } from '../../../components/ui/button.tsx';
import {
  CalendarIcon,
  DownloadIcon,
  FilmIcon,
  TrashIcon,
  XIcon,
} from '../../../components/ui/icons.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { ProgressBar } from '../../../components/ui/progress-bar.tsx';
import { dateFormatter } from '@cadence/shared/date-format';
import { formatDateTime } from '../../../lib/format.ts';
import { useLanguage } from '../../../lib/i18n.ts';
import { useTimeZone } from '../../../lib/use-time-zone.ts';

const badgeTone: Record<StoryStatus, string> = {
  queued: 'bg-slate-100 text-slate-700 ring-slate-200',
  rendering: 'bg-brand-50 text-brand-700 ring-brand-200',
  completed: 'bg-emerald-50 text-emerald-700 ring-emerald-200',
  failed: 'bg-red-50 text-red-700 ring-red-200',
  cancelled: 'bg-slate-100 text-slate-600 ring-slate-200',
};

const statusKeys: Record<StoryStatus, TranslationKey> = {
  queued: 'stories.status.queued',
  rendering: 'stories.status.rendering',
  completed: 'stories.status.completed',
  failed: 'stories.status.failed',
  cancelled: 'stories.status.cancelled',
};

/** A story in the list: live progress while rendering, then a playable preview and its actions. */
export function StoryCard({
  story,
  number,
  onCancel,
  onDelete,
  busy,
}: {
  story: Story;
  /** 1-based position in the list, to name the story for screen readers. */
  number: number;
  onCancel: () => void;
  onDelete: () => void;
  busy: boolean;
}) {
  const { t } = useTranslation();
  const { timeZone } = useTimeZone();
  const { language, locale } = useLanguage();
  const percent = Math.round(story.progress * 100);
  const active = story.status === 'queued' || story.status === 'rendering';
  const statusText = t(statusKeys[story.status], { percent });

  return (
    <article
      aria-label={t('stories.list.label', { number })}
      className="flex flex-col overflow-hidden rounded-2xl bg-white shadow-sm ring-1 ring-slate-200"
    >
      <StoryPreview story={story} number={number} active={active} statusText={statusText} />

      <div className="flex flex-1 flex-col gap-2 p-3">
        <div className="min-w-0 text-xs text-slate-600">
          <h3 className="text-sm font-semibold text-slate-900">
            {t('stories.list.label', { number })}
          </h3>
          <SourceLine label={t('stories.card.top')} name={story.topName} />
          <SourceLine label={t('stories.card.bottom')} name={story.bottomName} />
          <time
            dateTime={story.createdAt}
            title={formatDateTime(story.createdAt, language, timeZone)}
            className="block truncate"
          >
            {dateFormatter(locale, {
              day: 'numeric',
              month: 'short',
              hour: '2-digit',
              minute: '2-digit',
              hourCycle: 'h23',
              timeZone,
            }).format(new Date(story.createdAt))}
          </time>
        </div>
        {active && (
          <ProgressBar
            label={t('stories.progressLabel', { number })}
            percent={percent}
            valueText={statusText}
          />
        )}
        {story.failReason && <p className="text-xs text-red-700">{t(story.failReason)}</p>}

        <StoryActions
          story={story}
          number={number}
          active={active}
          busy={busy}
          onCancel={onCancel}
          onDelete={onDelete}
        />
      </div>
    </article>
  );
}

/** 'Haut : recette.mp4', cut to the card's width (whole on hover); a deleted source says so. */
function SourceLine({ label, name }: { label: string; name: string | null }) {
  const { t } = useTranslation();
  const shown = name ?? t('stories.card.deleted');
  return (
    <p className="truncate" title={`${label} ${shown}`}>
      <span className="font-medium text-slate-700">{label}</span> {shown}
    </p>
  );
}

/** The 9:16 frame: the playable story once rendered, else a spinner or the film icon; the status on top. */
function StoryPreview({
  story,
  number,
  active,
  statusText,
}: {
  story: Story;
  number: number;
  active: boolean;
  statusText: string;
}) {
  const { t } = useTranslation();
  const { language } = useLanguage();
  const media = story.resultMedia;
  return (
    <div className="relative aspect-[9/16] bg-slate-900">
      {story.status === 'completed' && media ? (
        // A story is rendered from the user's own clips: there is no caption track to offer.
        // eslint-disable-next-line jsx-a11y/media-has-caption
        <video
          src={media.fileUrl}
          poster={media.thumbnailUrl ?? undefined}
          controls
          playsInline
          preload="metadata"
          className="h-full w-full object-contain"
          aria-label={t('stories.preview', { number })}
        />
      ) : (
        <div className="flex h-full w-full flex-col items-center justify-center gap-3 bg-gradient-to-b from-slate-800 to-slate-950 p-4 text-center text-white/80">
          {active ? (
            <Spinner className="h-8 w-8 text-brand-500" />
          ) : (
            <FilmIcon className="h-8 w-8" />
          )}
          {story.status === 'rendering' && (
            <span className="text-2xl font-bold tabular-nums text-white">
              {new Intl.NumberFormat(language, { style: 'percent' }).format(story.progress)}
            </span>
          )}
        </div>
      )}
      <span
        className={`absolute left-2 top-2 rounded-full px-2 py-0.5 text-xs font-semibold ring-1 ring-inset ${badgeTone[story.status]}`}
        aria-live="polite"
      >
        {statusText}
      </span>
    </div>
  );
}

/** Download and schedule once rendered; cancel while queued or rendering, delete afterwards. */
function StoryActions({
  story,
  number,
  active,
  busy,
  onCancel,
  onDelete,
}: {
  story: Story;
  number: number;
  active: boolean;
  busy: boolean;
  onCancel: () => void;
  onDelete: () => void;
}) {
  const { t } = useTranslation();
  const media = story.resultMedia;
  return (
    <div className="mt-auto flex flex-col gap-1.5 pt-1">
      {story.status === 'completed' && media && (
        <>
          <a
            href={`${media.fileUrl}?download=1`}
            download
            className={buttonClassName('primary', 'w-full px-3 py-2')}
          >
            <DownloadIcon className="h-4 w-4" />
            {t('stories.actions.download')}
          </a>
          <Link
            to={`/scheduler?media=${encodeURIComponent(media.id)}`}
            className={buttonClassName('secondary', 'w-full px-3 py-2')}
          >
            <CalendarIcon className="h-4 w-4" />
            {t('stories.actions.schedule')}
          </Link>
        </>
      )}
      {active ? (
        <button
          type="button"
          onClick={onCancel}
          disabled={busy}
          aria-label={t('stories.actions.cancelLabel', { number })}
          className={buttonClassName('secondary', 'w-full px-3 py-2')}
        >
          <XIcon className="h-4 w-4" />
          {t('stories.actions.cancel')}
        </button>
      ) : (
        <button
          type="button"
          onClick={onDelete}
          disabled={busy}
          aria-label={t('stories.actions.deleteLabel', { number })}
          className={buttonClassName(
            'ghost',
            'w-full px-3 py-2 text-red-700 hover:bg-red-50 hover:text-red-800',
          )}
        >
          <TrashIcon className="h-4 w-4" />
          {t('stories.actions.delete')}
        </button>
      )}
    </div>
  );
}
