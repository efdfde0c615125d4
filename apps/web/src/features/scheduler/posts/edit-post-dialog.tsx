import { MAX_TITLE_LENGTH, type Post } from '@cadence/shared/schemas/schedule';
import { creatorOptionsForPost } from '@cadence/shared/schedule/creator-options';
import { localDateOf } from '@cadence/shared/schedule/planner';
import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert } from '../../../components/ui/alert.tsx';
import { FormDialog, useFormDialog } from '../../../components/ui/form-dialog.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { useErrorText } from '../../../lib/error-text.ts';
import { useCreatorInfo } from '../api/get-creator-info.ts';
import { useEditPost } from '../api/post-actions.ts';
import { useTimeZone } from '../../../lib/use-time-zone.ts';
import { asPrivacyLevel, postEdit, type PostEditValues } from './post-edit.ts';
import { dateTimeFields } from './date-time.ts';
import { DateTimeFields } from './date-time-fields.tsx';
import { inputClass, labelClass } from '../components/form-controls.tsx';
import { InteractionsField } from '../composer/interactions-field.tsx';
import { PrivacyField } from '../composer/privacy-field.tsx';

/**
 * Edits a pending post: caption, privacy, interactions (as TikTok allows them for the account)
 * and time. Once the post starts publishing the server refuses (409) and the reason is shown.
 * `post` null = closed.
 */
export function EditPostDialog({
  post,
  onClose,
  onDone,
}: {
  post: Post | null;
  onClose: () => void;
  onDone: () => void;
}) {
  const { t } = useTranslation();
  const edit = useEditPost();
  const { formId, close } = useFormDialog(edit, onClose);

  return (
    <FormDialog
      open={post !== null}
      onClose={close}
      formId={formId}
      pending={edit.isPending}
      title={t('scheduler.edit.title')}
      description={t('scheduler.edit.description')}
      closeLabel={t('scheduler.edit.close')}
      cancelLabel={t('scheduler.edit.cancel')}
      submitLabel={t('scheduler.edit.save')}
    >
      {post && (
        <EditPostForm
          key={post.id}
          formId={formId}
          post={post}
          error={edit.error}
          onSubmit={(changes) => {
            if (changes === null) {
              close();
              return;
            }
            edit.mutate(
              { id: post.id, edit: changes },
              {
                onSuccess: () => {
                  edit.reset();
                  onDone();
                },
              },
            );
          }}
        />
      )}
    </FormDialog>
  );
}

function EditPostForm({
  formId,
  post,
  error,
  onSubmit,
}: {
  formId: string;
  post: Post;
  error: Error | null;
  onSubmit: (edit: ReturnType<typeof postEdit>['edit']) => void;
}) {
  const { t } = useTranslation();
  const errorText = useErrorText('scheduler.errors.actionFailed');
  const zone = useTimeZone();
  const creator = useCreatorInfo(post.accountId ?? '');
  const captionId = useId();
  const counterId = useId();
  const privacyId = useId();
  const [values, setValues] = useState<PostEditValues>(() => ({
    title: post.title,
    privacyLevel: asPrivacyLevel(post.privacyLevel),
    allowComment: post.allowComment,
    allowDuet: post.allowDuet,
    allowStitch: post.allowStitch,
    when: dateTimeFields(post.dueAt, zone.timeZone),
  }));
  const [invalidTime, setInvalidTime] = useState(false);
  // While TikTok says the account cannot post now, a post due on a later day uses its last answer.
  const laterDay = values.when.date > localDateOf(new Date(), zone.timeZone);
  const options = creator.data && creatorOptionsForPost(creator.data, laterDay);
  const offered = creator.data && options ? { ...creator.data, ...options } : undefined;
  const change = (patch: Partial<PostEditValues>) =>
    setValues((current) => ({ ...current, ...patch }));

  function submit(event: FormEvent) {
    event.preventDefault();
    const result = postEdit(post, values, zone.timeZone);
    setInvalidTime(result.invalidTime);
    if (!result.invalidTime) onSubmit(result.edit);
  }

  return (
    <form id={formId} onSubmit={submit} className="space-y-5" noValidate>
      <div>
        <label htmlFor={captionId} className={labelClass}>
          {t('scheduler.edit.caption')}
        </label>
        <textarea
          id={captionId}
          rows={3}
          value={values.title}
          maxLength={MAX_TITLE_LENGTH}
          onChange={(event) => change({ title: event.target.value })}
          aria-describedby={counterId}
          placeholder={t('scheduler.form.videos.captionPlaceholder')}
          className={`${inputClass} resize-y`}
        />
        <p id={counterId} className="mt-1 text-right text-xs tabular-nums text-slate-500">
          {t('scheduler.form.videos.counter', { n: values.title.length, max: MAX_TITLE_LENGTH })}
        </p>
      </div>

      {creator.isPending && post.accountId !== null ? (
        <p className="flex items-center gap-2 text-sm text-slate-500" role="status">
          <Spinner className="h-4 w-4" />
          {t('scheduler.edit.loadingCreator')}
        </p>
      ) : creator.isError || post.accountId === null ? (
        <Alert tone="info">{t('scheduler.edit.accountGone')}</Alert>
      ) : null}
      {/* An inbox draft's privacy and interactions are the creator's to set in the TikTok app. */}
      {post.delivery !== 'inbox' && (
        <>
          <PrivacyField
            creator={offered}
            value={values.privacyLevel}
            onChange={(privacyLevel) => change({ privacyLevel })}
            id={privacyId}
          />
          <InteractionsField creator={offered} state={values} onChange={change} />
        </>
      )}

      <fieldset>
        <legend className={labelClass}>{t('scheduler.edit.when')}</legend>
        <DateTimeFields
          value={values.when}
          onChange={(when) => change({ when })}
          zoneName={zone.name}
        />
      </fieldset>
      {invalidTime && <Alert tone="error">{t('errors.invalidDate')}</Alert>}
      {error && <Alert tone="error">{errorText(error)}</Alert>}
    </form>
  );
}
