import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { usePostingSlots } from '../api/planning.ts';
import { ZoneNote } from '../components/zone-note.tsx';
import { useZonedFormat } from './plan-preview.tsx';
import { PostingSlotsEditor } from './posting-slots-editor.tsx';

/**
 * 'Add to queue': where the selected videos will go (the account's next free posting slots) and
 * the account's weekly slots, edited right here where the choice is made (decision 027).
 */
export function QueuePanel({ accountId, videoCount }: { accountId: string; videoCount: number }) {
  const { t } = useTranslation();
  const slots = usePostingSlots(accountId);
  const headingId = useId();
  if (accountId === '') {
    return <p className="text-sm text-slate-600">{t('planner.queue.chooseAccount')}</p>;
  }
  if (!slots.data) {
    return (
      <p className="flex items-center gap-2 text-sm text-slate-500" role="status">
        <Spinner className="h-4 w-4" />
        {t('app.loading')}
      </p>
    );
  }
  const { timeZone, nextFree, dailyCap } = slots.data;
  return (
    <div className="space-y-4">
      <section
        aria-labelledby={headingId}
        className="rounded-xl bg-white p-4 ring-1 ring-inset ring-slate-200"
        data-testid="queue-next"
      >
        <h4 id={headingId} className="mb-2 text-sm font-semibold text-slate-900">
          {t('planner.queue.next')}
        </h4>
        {nextFree.length === 0 ? (
          <p className="text-sm text-slate-600">{t('planner.queue.noFree')}</p>
        ) : (
          <NextSlots instants={nextFree.slice(0, Math.max(1, videoCount))} timeZone={timeZone} />
        )}
        {/* The queue has no over-cap choice: a slot on a full day is never a free one. */}
        <p className="mt-2 text-xs text-slate-600" data-testid="queue-cap-note">
          {t('planner.queue.capNote', { cap: dailyCap })}
        </p>
      </section>
      <PostingSlotsEditor accountId={accountId} slots={slots.data.slots} timeZone={timeZone} />
    </div>
  );
}

function NextSlots({ instants, timeZone }: { instants: string[]; timeZone: string }) {
  const format = useZonedFormat(timeZone);
  return (
    <>
      <ol className="flex flex-wrap gap-2">
        {instants.map((instant, index) => (
          <li
            key={instant}
            className="rounded-lg bg-brand-50 px-2.5 py-1 text-sm font-medium text-brand-900 ring-1 ring-inset ring-brand-200"
          >
            <span className="mr-1.5 text-xs text-brand-700">{index + 1}.</span>
            {format.dayAndTime(instant)}
          </li>
        ))}
      </ol>
      <ZoneNote timeZone={timeZone} />
    </>
  );
}
