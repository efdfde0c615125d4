import type { Post } from '@cadence/shared/schemas/schedule';
import { useCallback, useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Dialog } from '../../../components/ui/dialog.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { useReschedulePost } from '../api/post-actions.ts';
import { todayIsoDate } from '../form-state.ts';
import { useErrorText } from '../../../lib/error-text.ts';

const inputClass =
  'block w-full rounded-lg border-0 bg-white px-3.5 py-2.5 text-slate-900 shadow-sm ring-1 ring-inset ring-slate-300 focus:ring-2 focus:ring-inset focus:ring-brand-500 sm:text-sm';

function localParts(iso: string): { date: string; time: string } {
  const due = new Date(iso);
  const pad = (value: number) => String(value).padStart(2, '0');
  return { date: todayIsoDate(due), time: `${pad(due.getHours())}:${pad(due.getMinutes())}` };
}

/** A small date + time dialog for a pending post. `post` null = closed. */
export function RescheduleDialog({
  post,
  onClose,
  onDone,
}: {
  post: Post | null;
  onClose: () => void;
  onDone: () => void;
}) {
  const { t } = useTranslation();
  const formId = useId();
  const reschedule = useReschedulePost();
  const { reset } = reschedule;
  const close = useCallback(() => {
    reset();
    onClose();
  }, [reset, onClose]);

  return (
    <Dialog
      open={post !== null}
      onClose={close}
      title={t('scheduler.reschedule.title')}
      description={t('scheduler.reschedule.description')}
      closeLabel={t('scheduler.reschedule.close')}
      footer={
        <>
          <Button variant="secondary" onClick={close}>
            {t('scheduler.reschedule.cancel')}
          </Button>
          <Button type="submit" form={formId} disabled={reschedule.isPending}>
            {reschedule.isPending && <Spinner className="h-4 w-4" />}
            {t('scheduler.reschedule.save')}
          </Button>
        </>
      }
    >
      {post && (
        <RescheduleForm
          key={post.id}
          formId={formId}
          post={post}
          error={reschedule.error}
          onSubmit={(dueAt) =>
            reschedule.mutate(
              { id: post.id, dueAt },
              {
                onSuccess: () => {
                  reset();
                  onDone();
                },
              },
            )
          }
        />
      )}
    </Dialog>
  );
}

function RescheduleForm({
  formId,
  post,
  error,
  onSubmit,
}: {
  formId: string;
  post: Post;
  error: Error | null;
  onSubmit: (dueAt: string) => void;
}) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const [value, setValue] = useState(() => localParts(post.dueAt));
  const [invalid, setInvalid] = useState(false);
  const dateId = useId();
  const timeId = useId();

  function submit(event: FormEvent) {
    event.preventDefault();
    // Date and time are the browser's local ones, like the schedule form's.
    const due = new Date(`${value.date}T${value.time}`);
    if (!value.date || !value.time || Number.isNaN(due.getTime())) {
      setInvalid(true);
      return;
    }
    setInvalid(false);
    onSubmit(due.toISOString());
  }

  return (
    <form id={formId} onSubmit={submit} className="space-y-4" noValidate>
      <div className="grid grid-cols-2 gap-3">
        <div>
          <label htmlFor={dateId} className="mb-1.5 block text-sm font-medium text-slate-700">
            {t('scheduler.form.date')}
          </label>
          <input
            id={dateId}
            type="date"
            required
            value={value.date}
            onChange={(event) => setValue({ ...value, date: event.target.value })}
            className={inputClass}
          />
        </div>
        <div>
          <label htmlFor={timeId} className="mb-1.5 block text-sm font-medium text-slate-700">
            {t('scheduler.form.time')}
          </label>
          <input
            id={timeId}
            type="time"
            required
            value={value.time}
            onChange={(event) => setValue({ ...value, time: event.target.value })}
            className={inputClass}
          />
        </div>
      </div>
      {invalid && <Alert tone="error">{t('errors.invalidDate')}</Alert>}
      {error && <Alert tone="error">{errorText(error)}</Alert>}
    </form>
  );
}
