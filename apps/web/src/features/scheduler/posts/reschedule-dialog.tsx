import type { Post } from '@cadence/shared/schemas/schedule';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert } from '../../../components/ui/alert.tsx';
import { FormDialog, useFormDialog } from '../../../components/ui/form-dialog.tsx';
import { useErrorText } from '../../../lib/error-text.ts';
import { useReschedulePost } from '../api/post-actions.ts';
import { useTimeZone } from '../../../lib/use-time-zone.ts';
import { dateTimeFields, dateTimeInstant } from './date-time.ts';
import { DateTimeFields } from './date-time-fields.tsx';

/** What the dialog needs of a post: the calendar's chips carry only part of one. */
type ReschedulablePost = Pick<Post, 'id' | 'dueAt'>;

/** A small date + time dialog for a pending, cancelled or failed post. `post` null = closed. */
export function RescheduleDialog({
  post,
  onClose,
  onDone,
}: {
  post: ReschedulablePost | null;
  onClose: () => void;
  onDone: () => void;
}) {
  const { t } = useTranslation();
  const reschedule = useReschedulePost();
  const { formId, close } = useFormDialog(reschedule, onClose);

  return (
    <FormDialog
      open={post !== null}
      onClose={close}
      formId={formId}
      pending={reschedule.isPending}
      title={t('scheduler.reschedule.title')}
      description={t('scheduler.reschedule.description')}
      closeLabel={t('scheduler.reschedule.close')}
      cancelLabel={t('scheduler.reschedule.cancel')}
      submitLabel={t('scheduler.reschedule.save')}
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
                  reschedule.reset();
                  onDone();
                },
              },
            )
          }
        />
      )}
    </FormDialog>
  );
}

function RescheduleForm({
  formId,
  post,
  error,
  onSubmit,
}: {
  formId: string;
  post: ReschedulablePost;
  error: Error | null;
  onSubmit: (dueAt: string) => void;
}) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const zone = useTimeZone();
  const [value, setValue] = useState(() => dateTimeFields(post.dueAt, zone.timeZone));
  const [invalid, setInvalid] = useState(false);

  function submit(event: FormEvent) {
    event.preventDefault();
    const dueAt = dateTimeInstant(value, zone.timeZone);
    setInvalid(dueAt === null);
    if (dueAt !== null) onSubmit(dueAt);
  }

  return (
    <form id={formId} onSubmit={submit} className="space-y-4" noValidate>
      <DateTimeFields value={value} onChange={setValue} zoneName={zone.name} />
      {invalid && <Alert tone="error">{t('errors.invalidDate')}</Alert>}
      {error && <Alert tone="error">{errorText(error)}</Alert>}
    </form>
  );
}
