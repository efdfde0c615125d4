import { dateFormatter } from '@cadence/shared/date-format';
import type { SchedulePreview } from '@cadence/shared/schemas/planning';
import { useId, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { useErrorText } from '../../../lib/error-text.ts';
import { useLanguage } from '../../../lib/i18n.ts';
import { timeZoneWords } from '../../../lib/use-time-zone.ts';
import { checkboxClass } from '../components/form-controls.tsx';

/** Date and time words of instants in a zone, in the interface's language. */
export function useZonedFormat(timeZone: string) {
  const { locale } = useLanguage();
  const day = dateFormatter(locale, {
    weekday: 'short',
    day: 'numeric',
    month: 'short',
    timeZone,
  });
  const time = new Intl.DateTimeFormat(locale, {
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
    timeZone,
  });
  return {
    day: (iso: string) => day.format(new Date(iso)),
    time: (iso: string) => time.format(new Date(iso)),
    dayAndTime: (iso: string) => `${day.format(new Date(iso))} ${time.format(new Date(iso))}`,
  };
}

/** The list's frame: the rows scroll past about eight (max-h-72), loaded or not. */
const listClass = 'max-h-72 divide-y divide-slate-100';
/**
 * A loaded row: a text-sm line and py-2, 36 px (and the divider above it). A waiting row is h-9 of
 * content (box-content: its divider comes on top, as a loaded row's does).
 */
const rowClass = 'flex items-center gap-x-3 py-2 text-sm';

/**
 * Every slot the form's timing gives, from POST /api/schedules/preview (the server's planner, so
 * what shows is what will be created): date, time, '±1 h' when randomized, and the posts beyond
 * the account's daily cap with the offer to move them to the next day with room.
 *
 * While the first answer is on its way the frame is already there, one empty row per post asked
 * for (`posts`), so the consent box and the button below do not move down under a pointer when it
 * comes (a check meant for the consent box landed beside it).
 */
export function PlanPreview({
  preview,
  posts,
  loading,
  error,
  postpone,
  onPostpone,
}: {
  preview: SchedulePreview | undefined;
  /** How many posts the preview was asked for: the rows to hold room for until it answers. */
  posts: number;
  loading: boolean;
  error: Error | null;
  postpone: boolean;
  onPostpone: (postpone: boolean) => void;
}) {
  const { t } = useTranslation();
  const { language } = useLanguage();
  const headingId = useId();
  const errorText = useErrorText();
  const format = useZonedFormat(preview?.timeZone ?? 'UTC');
  if (!preview) {
    if (error) return <p className="text-sm font-medium text-red-700">{errorText(error)}</p>;
    if (!loading) return null;
    return <PreviewWaiting headingId={headingId} posts={posts} />;
  }
  const over = preview.posts.filter((post) => post.overCap);
  const dayNames = [...new Set(over.map((post) => format.day(post.dueAt)))].join(', ');
  const zone = timeZoneWords(preview.timeZone, language, t);

  return (
    <PreviewFrame
      headingId={headingId}
      testId="plan-preview"
      status={
        <p className="flex items-center gap-1.5 text-xs text-slate-500">
          {loading && <Spinner className="h-3 w-3" />}
          {t(
            preview.posts.length === 1 ? 'planner.preview.countOne' : 'planner.preview.countMany',
            { n: preview.posts.length },
          )}{' '}
          · {zone}
        </p>
      }
    >
      {error && <p className="mb-2 text-sm font-medium text-red-700">{errorText(error)}</p>}
      <ol className={`${listClass} overflow-y-auto`} aria-labelledby={headingId}>
        {preview.posts.map((post, index) => (
          <PreviewRow
            key={`${post.mediaId}-${index}`}
            post={post}
            index={index}
            postpone={postpone}
            format={format}
          />
        ))}
      </ol>
      {over.length > 0 && (
        <OverCapOffer
          summary={t(
            over.length === 1
              ? 'planner.preview.overCapSummaryOne'
              : 'planner.preview.overCapSummaryMany',
            { n: over.length, cap: preview.dailyCap, days: dayNames },
          )}
          postpone={postpone}
          onPostpone={onPostpone}
        />
      )}
    </PreviewFrame>
  );
}

/**
 * While the first answer is on its way: the frame already there, one empty row per post asked for
 * (at most eight, as many as show before the list scrolls).
 */
function PreviewWaiting({ headingId, posts }: { headingId: string; posts: number }) {
  const { t } = useTranslation();
  return (
    <PreviewFrame
      headingId={headingId}
      status={
        <p className="flex items-center gap-1.5 text-xs text-slate-500" role="status">
          <Spinner className="h-3 w-3" />
          {t('planner.preview.loading')}
        </p>
      }
    >
      <div className={`${listClass} overflow-hidden`} aria-hidden="true">
        {Array.from({ length: Math.min(Math.max(posts, 1), 8) }, (_, index) => (
          <div key={index} className="box-content flex h-9 items-center gap-x-3">
            <span className="w-6 shrink-0 text-xs tabular-nums text-slate-500">{index + 1}</span>
            <span className="h-3 w-24 rounded bg-slate-100" />
            <span className="h-3 w-10 rounded bg-slate-100" />
          </div>
        ))}
      </div>
    </PreviewFrame>
  );
}

/** A post's slot: its number, day and time, the window when randomized, and the daily cap's say. */
function PreviewRow({
  post,
  index,
  postpone,
  format,
}: {
  post: SchedulePreview['posts'][number];
  index: number;
  postpone: boolean;
  format: ReturnType<typeof useZonedFormat>;
}) {
  const { t } = useTranslation();
  const randomized = post.earliest !== post.latest;
  const moved = postpone && post.overCap && post.suggestedDueAt !== null;
  return (
    <li className={`${rowClass} flex-wrap gap-y-1`}>
      <span className="w-6 shrink-0 text-xs tabular-nums text-slate-500">{index + 1}</span>
      <span
        className={`min-w-0 font-medium ${moved ? 'text-slate-500 line-through' : 'text-slate-900'}`}
      >
        {format.day(post.dueAt)}
      </span>
      <span className={`tabular-nums ${moved ? 'text-slate-500 line-through' : 'text-slate-700'}`}>
        {format.time(post.dueAt)}
      </span>
      {randomized && (
        <span
          className="rounded-full bg-slate-100 px-2 py-0.5 text-xs font-medium text-slate-700"
          title={t('planner.preview.windowLabel', {
            from: format.time(post.earliest),
            to: format.time(post.latest),
          })}
        >
          {t('planner.preview.window')}
          <span className="sr-only">
            {' '}
            (
            {t('planner.preview.windowLabel', {
              from: format.time(post.earliest),
              to: format.time(post.latest),
            })}
            )
          </span>
        </span>
      )}
      {post.overCap &&
        (moved && post.suggestedDueAt !== null ? (
          <span className="rounded-full bg-emerald-50 px-2 py-0.5 text-xs font-semibold text-emerald-800 ring-1 ring-inset ring-emerald-200">
            {t('planner.preview.movedTo', { when: format.dayAndTime(post.suggestedDueAt) })}
          </span>
        ) : (
          <span className="rounded-full bg-amber-50 px-2 py-0.5 text-xs font-semibold text-amber-900 ring-1 ring-inset ring-amber-200">
            {t('planner.preview.overCap')}
          </span>
        ))}
    </li>
  );
}

/** The posts beyond the account's daily cap (`summary`), and the offer to move them. */
function OverCapOffer({
  summary,
  postpone,
  onPostpone,
}: {
  summary: string;
  postpone: boolean;
  onPostpone: (postpone: boolean) => void;
}) {
  const { t } = useTranslation();
  const hintId = useId();
  return (
    <div className="mt-3 space-y-2 rounded-lg bg-amber-50 p-3 ring-1 ring-inset ring-amber-200">
      <p className="text-sm text-amber-900" role="status">
        {summary}
      </p>
      <label className="grid cursor-pointer grid-cols-[auto_1fr] gap-x-2.5">
        <input
          type="checkbox"
          checked={postpone}
          onChange={(event) => onPostpone(event.target.checked)}
          aria-describedby={hintId}
          className={`${checkboxClass} row-span-2 mt-0.5`}
        />
        <span className="text-sm font-semibold text-amber-950">
          {t('planner.preview.postpone')}
        </span>
        <span id={hintId} className="text-xs text-amber-900">
          {t('planner.preview.postponeHint')}
        </span>
      </label>
    </div>
  );
}

/**
 * The preview's box and heading, the same loaded or waiting. The line under the title (the count
 * and zone, or the waiting line) is always a line of its own: beside the title it fit at one width and
 * wrapped at another, so the box would change height when the slots came.
 */
function PreviewFrame({
  headingId,
  testId,
  status,
  children,
}: {
  headingId: string;
  testId?: string;
  status: ReactNode;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <section
      aria-labelledby={headingId}
      className="rounded-xl bg-white p-4 ring-1 ring-inset ring-slate-200"
      data-testid={testId}
    >
      <div className="mb-3 space-y-1">
        <h4 id={headingId} className="text-sm font-semibold text-slate-900">
          {t('planner.preview.title')}
        </h4>
        {status}
      </div>
      {children}
    </section>
  );
}
