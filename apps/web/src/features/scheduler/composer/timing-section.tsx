import { useTranslation } from 'react-i18next';
import { SlotSuggestion } from '../../../components/analytics/slot-suggestion.tsx';
import { useKeyText } from '../../../lib/error-text.ts';
import { Section } from '../components/form-controls.tsx';
import { PlanPreview } from '../slots/plan-preview.tsx';
import { QueuePanel } from '../slots/queue-panel.tsx';
import { PublishMethodField } from './publish-method-field.tsx';
import type { ScheduleFormModel } from './use-schedule-form.ts';

/** When the posts go out: the publishing method, the plan it makes, the queue's slots. */
export function TimingSection({ form, isPro }: { form: ScheduleFormModel; isPro: boolean }) {
  const { t } = useTranslation();
  const keyText = useKeyText();
  const { state, accountId, update, ids, timeZone, preview } = form;
  return (
    <Section title={t('scheduler.form.method.legend')}>
      <PublishMethodField
        state={state}
        onChange={update}
        errors={Object.fromEntries(
          Object.entries(form.errors).flatMap(([field, key]) =>
            key === undefined ? [] : [[field, keyText(key)]],
          ),
        )}
        videoCount={form.videos.length}
        isPro={isPro}
        timeZone={timeZone}
        ids={{
          date: ids.date,
          time: ids.time,
          count: ids.count,
          value: ids.value,
          startTime: ids.startTime,
          startDate: ids.startDate,
        }}
        scheduledExtra={
          accountId !== '' && (
            <SlotSuggestion
              accountId={accountId}
              timeZone={timeZone}
              onUse={(slot) => update({ date: slot.date, time: slot.time })}
            />
          )
        }
      />
      {/* At once, not after the debounce: its room is taken while the field is still in use. */}
      {preview.request !== null && (
        <PlanPreview
          preview={preview.query.data}
          posts={preview.request.mediaIds.length}
          loading={preview.query.isFetching || preview.body === null}
          error={preview.error}
          postpone={state.postponeOverCap}
          onPostpone={(postponeOverCap) => update({ postponeOverCap })}
        />
      )}
      {state.publishType === 'queue' && (
        <QueuePanel accountId={accountId} videoCount={form.videos.length} />
      )}
    </Section>
  );
}
