import type { Account } from '@cadence/shared/schemas/account';
import { useId, useReducer, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Dialog } from '../../../components/ui/dialog.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { useVideoUploads } from '../../../lib/upload.ts';
import { useCreateSchedule } from '../api/create-schedule.ts';
import { useCreatorInfo } from '../api/get-creator-info.ts';
import { browserTimeZone } from '../../../lib/time-zone.ts';
import { creatorBlocksSubmit, serverFieldErrors, type FormField } from '../form-state.ts';
import { useKeyText } from '../../../lib/error-text.ts';
import { useFormVideos } from '../hooks/use-form-videos.ts';
import {
  draftAccountId,
  initialDraft,
  scheduleDraftReducer,
  scheduleFormCheck,
  scheduleFormValues,
  type DraftEdit,
} from '../schedule-draft.ts';
import { AccountField } from './account-field.tsx';
import { ConsentField } from './consent-field.tsx';
import { Section } from './form-controls.tsx';
import { PublishMethodField } from './publish-method-field.tsx';
import { ScheduleFormFooter } from './schedule-form-footer.tsx';
import { SchedulingError } from './scheduling-error.tsx';
import { TikTokOptions } from './tiktok-options.tsx';
import { VideoField } from './video-field.tsx';

/**
 * The 'Nouvelle programmation' slide-over. It stays mounted while closed so uploads keep
 * running and a closed form reopens as it was left; only a successful submit resets it (spec §4).
 */
export function ScheduleForm({
  open,
  onClose,
  onScheduled,
  accounts,
  accountsLoading,
  requestedAccountId,
  requestedMediaId,
  isPro,
}: {
  open: boolean;
  onClose: () => void;
  onScheduled: (postCount: number) => void;
  accounts: readonly Account[];
  accountsLoading: boolean;
  /** From `?account=`: preselected once it is one of the schedulable accounts. */
  requestedAccountId: string | null;
  /** From `?media=`: an existing video (a story, a compilation) attached to the form. */
  requestedMediaId: string | null;
  isPro: boolean;
}) {
  const { t } = useTranslation();
  const keyText = useKeyText();
  const formId = useId();
  const ids = {
    videos: useId(),
    account: useId(),
    privacy: useId(),
    date: useId(),
    time: useId(),
    count: useId(),
    value: useId(),
    startTime: useId(),
    consent: useId(),
  };
  const [draft, dispatch] = useReducer(scheduleDraftReducer, requestedMediaId, (mediaId) =>
    initialDraft(mediaId),
  );
  const uploads = useVideoUploads();
  const create = useCreateSchedule();
  const accountId = draftAccountId(draft, requestedAccountId, accounts);
  const creator = useCreatorInfo(open ? accountId : '');
  const account = accounts.find((candidate) => candidate.id === accountId);
  const state = scheduleFormValues(draft, accountId, account, creator.data);
  const videos = useFormVideos(
    draft.attached,
    uploads.items,
    creator.data?.maxVideoPostDurationSec ?? null,
  );
  const videoCount = videos.length;
  const { request, clientErrors, errors } = scheduleFormCheck(
    state,
    videos,
    draft,
    browserTimeZone(),
  );
  const message = (field: FormField) => {
    const key = errors[field];
    return key === undefined ? undefined : keyText(key);
  };
  const update = (patch: DraftEdit) => dispatch({ type: 'edit', patch });

  const uploading = videos.some((video) => video.status === 'uploading');
  const cannotPost = creatorBlocksSubmit(creator.data, creator.isError, state.publishType);
  const submitDisabled =
    uploading || create.isPending || cannotPost || (accountId !== '' && creator.isLoading);

  const focusOrder: [FormField, string][] = [
    ['videos', ids.videos],
    ['accountId', ids.account],
    ['privacyLevel', ids.privacy],
    ['date', ids.date],
    ['time', ids.time],
    ['interval.count', ids.count],
    ['interval.value', ids.value],
    ['interval.startTime', ids.startTime],
    ['consent', ids.consent],
  ];

  function submit(event: FormEvent) {
    event.preventDefault();
    if (submitDisabled) return;
    dispatch({ type: 'submitted' });
    if (request === null) {
      const first = focusOrder.find(([field]) => clientErrors[field] !== undefined);
      if (first) document.getElementById(first[1])?.focus();
      return;
    }
    create.mutate(request, {
      onSuccess: (created) => {
        uploads.clear();
        dispatch({ type: 'scheduled', accountId, now: new Date() });
        create.reset();
        onScheduled(created.posts.length);
      },
      onError: (error) => {
        dispatch({
          type: 'refused',
          errors: error instanceof ApiError ? serverFieldErrors(error.fields) : {},
        });
      },
    });
  }

  const branded = state.commercialContent.enabled && state.commercialContent.brandedContent;

  return (
    <Dialog
      open={open}
      onClose={onClose}
      variant="slide-over"
      title={t('scheduler.form.title')}
      description={t('scheduler.form.description')}
      closeLabel={t('scheduler.form.close')}
      footer={
        <ScheduleFormFooter
          formId={formId}
          uploading={uploading}
          pending={create.isPending}
          submitDisabled={submitDisabled}
          onCancel={onClose}
        />
      }
    >
      <form id={formId} onSubmit={submit} noValidate className="space-y-8">
        <SchedulingError error={create.error} />

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
              </span>
            )
          }
        >
          <VideoField
            inputId={ids.videos}
            videos={videos}
            captions={state.captions}
            error={message('videos')}
            captionErrors={(index) => message(`caption:${index}`)}
            onAdd={(files) => {
              dispatch({ type: 'videosAdded' });
              uploads.add(files);
            }}
            onRemove={(video) => {
              // An attached video belongs to another screen's work: detach, never delete.
              const attachedId = draft.attached.find((id) => `media-${id}` === video.key) ?? null;
              if (attachedId === null) uploads.remove(video.key);
              dispatch({
                type: 'videoRemoved',
                key: video.key,
                attachedId,
                remaining: videoCount - 1,
              });
            }}
            onCaption={(key, caption) => dispatch({ type: 'caption', key, caption })}
          />
        </Section>

        <Section title={t('scheduler.form.account.section')}>
          <AccountField
            selectId={ids.account}
            accounts={accounts}
            accountsLoading={accountsLoading}
            value={state.accountId}
            onChange={(chosen) => dispatch({ type: 'selectAccount', accountId: chosen })}
            error={message('accountId')}
            creator={{ data: creator.data, isLoading: creator.isLoading, error: creator.error }}
          />
          {accountId !== '' && (
            <TikTokOptions
              privacyId={ids.privacy}
              creator={creator.data}
              state={state}
              onChange={update}
              errors={{
                privacyLevel: message('privacyLevel'),
                commercialContent: message('commercialContent'),
              }}
            />
          )}
        </Section>

        <Section title={t('scheduler.form.method.legend')}>
          <PublishMethodField
            state={state}
            onChange={update}
            errors={Object.fromEntries(
              Object.entries(errors).flatMap(([field, key]) =>
                key === undefined ? [] : [[field, keyText(key)]],
              ),
            )}
            videoCount={videoCount}
            isPro={isPro}
            ids={{
              date: ids.date,
              time: ids.time,
              count: ids.count,
              value: ids.value,
              startTime: ids.startTime,
            }}
          />
        </Section>

        <ConsentField
          checkboxId={ids.consent}
          branded={branded}
          checked={state.consent}
          onChange={(consent) => update({ consent })}
          error={message('consent')}
        />
        {message('form') && <p className="text-sm font-medium text-red-700">{message('form')}</p>}
      </form>
    </Dialog>
  );
}
