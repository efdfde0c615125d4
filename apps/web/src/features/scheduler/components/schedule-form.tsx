import type { Account } from '@cadence/shared/schemas/account';
import { useCallback, useEffect, useId, useMemo, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button.tsx';
import { Dialog } from '../../../components/ui/dialog.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { useVideoUploads } from '../../../lib/upload.ts';
import { useCreateSchedule } from '../api/create-schedule.ts';
import { useCreatorInfo } from '../api/get-creator-info.ts';
import { useMediaList } from '../api/get-media.ts';
import {
  accountDefaults,
  buildScheduleRequest,
  clampIntervalCount,
  initialFormState,
  serverFieldErrors,
  validateSchedule,
  type FieldErrors,
  type FormField,
  type ScheduleFormState,
} from '../form-state.ts';
import { useErrorText, useKeyText } from '../hooks/use-error-text.ts';
import { AccountField } from './account-field.tsx';
import { ConsentField } from './consent-field.tsx';
import { Section } from './form-controls.tsx';
import { PublishMethodField } from './publish-method-field.tsx';
import { TikTokOptions } from './tiktok-options.tsx';
import { VideoField, type FormVideo } from './video-field.tsx';

/** The browser's IANA zone: dates and times in the form are the person's own. */
function browserTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone;
}

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
  const errorText = useErrorText();
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
  const [state, setState] = useState<ScheduleFormState>(() => initialFormState());
  const [attached, setAttached] = useState<string[]>([]);
  const [attempted, setAttempted] = useState(false);
  const [serverErrors, setServerErrors] = useState<FieldErrors>({});
  const uploads = useVideoUploads();
  const create = useCreateSchedule();
  const creator = useCreatorInfo(open ? state.accountId : '');
  const account = accounts.find((candidate) => candidate.id === state.accountId);

  // `?account=` preselects once the accounts are known.
  useEffect(() => {
    if (requestedAccountId && accounts.some((candidate) => candidate.id === requestedAccountId)) {
      setState((current) => ({ ...current, accountId: requestedAccountId }));
    }
  }, [requestedAccountId, accounts]);

  useEffect(() => {
    if (requestedMediaId) {
      setAttached((current) =>
        current.includes(requestedMediaId) ? current : [...current, requestedMediaId],
      );
    }
  }, [requestedMediaId]);

  // The account's own saved defaults, once per account, limited to what TikTok allows now.
  const defaultsAppliedFor = useRef<string | null>(null);
  useEffect(() => {
    if (!creator.data || !account || defaultsAppliedFor.current === account.id) return;
    defaultsAppliedFor.current = account.id;
    setState((current) => ({ ...current, ...accountDefaults(account.settings, creator.data) }));
  }, [creator.data, account]);

  // Every video the form holds, in the order chosen: attached media first, then uploads.
  const attachedMedia = useMediaList(attached);
  const uploadIds = uploads.items.flatMap((item) => (item.mediaId ? [item.mediaId] : []));
  const uploadedMedia = useMediaList(uploadIds);
  const maxDuration = creator.data?.maxVideoPostDurationSec ?? null;
  const videos: FormVideo[] = useMemo(() => {
    const tooLong = (duration: number | undefined) =>
      maxDuration !== null && duration !== undefined && duration > maxDuration ? maxDuration : null;
    const fromMedia = attached.map((mediaId, index): FormVideo => {
      const query = attachedMedia[index];
      const media = query?.data;
      return {
        key: `media-${mediaId}`,
        name: media?.originalName ?? mediaId,
        previewUrl: null,
        thumbnailUrl: media?.thumbnailUrl ?? null,
        status: media ? 'done' : query?.isError ? 'error' : 'uploading',
        progress: media ? 1 : 0,
        mediaId: media ? mediaId : null,
        rejection: null,
        maxBytes: null,
        tooLongFor: tooLong(media?.durationSeconds),
        missing: query?.isError ?? false,
      };
    });
    const fromUploads = uploads.items.map((item): FormVideo => {
      const mediaIndex = item.mediaId ? uploadIds.indexOf(item.mediaId) : -1;
      const media = mediaIndex >= 0 ? uploadedMedia[mediaIndex]?.data : undefined;
      return {
        key: item.key,
        name: item.file.name,
        previewUrl: item.previewUrl,
        thumbnailUrl: media?.thumbnailUrl ?? null,
        status: item.status,
        progress: item.progress,
        mediaId: item.mediaId,
        rejection: item.rejection,
        maxBytes: item.maxBytes,
        tooLongFor: tooLong(media?.durationSeconds),
        missing: false,
      };
    });
    return [...fromMedia, ...fromUploads];
  }, [attached, attachedMedia, uploads.items, uploadIds, uploadedMedia, maxDuration]);

  // Spec §4: the spaced count follows the number of selected videos down.
  const videoCount = videos.length;
  useEffect(() => {
    setState((current) => {
      const count = clampIntervalCount(current.interval.count, videoCount);
      return count === current.interval.count || current.interval.count === 0
        ? current
        : { ...current, interval: { ...current.interval, count } };
    });
  }, [videoCount]);

  const update = useCallback((patch: Partial<ScheduleFormState>) => {
    setServerErrors({});
    setState((current) => ({ ...current, ...patch }));
  }, []);

  const validation = validateSchedule(buildScheduleRequest(state, videos, browserTimeZone()));
  const clientErrors: FieldErrors = validation.ok ? {} : { ...validation.errors };
  // Videos still uploading are selected, just not ready: the submit button waits for them.
  if (videos.length > 0 && clientErrors.videos === 'errors.selectVideo') delete clientErrors.videos;
  if (videos.some((video) => video.status === 'error'))
    clientErrors.videos ??= 'scheduler.form.videos.removeFailed';
  if (videos.some((video) => video.tooLongFor !== null))
    clientErrors.videos ??= 'scheduler.form.videos.removeTooLong';
  const errors: FieldErrors = attempted ? { ...clientErrors, ...serverErrors } : serverErrors;
  const message = (field: FormField) => {
    const key = errors[field];
    return key === undefined ? undefined : keyText(key);
  };

  const uploading = videos.some((video) => video.status === 'uploading');
  const cannotPost = creator.data?.cannotPostReason != null || creator.isError;
  const submitDisabled =
    uploading || create.isPending || cannotPost || (state.accountId !== '' && creator.isLoading);

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
    setAttempted(true);
    if (!validation.ok || Object.keys(clientErrors).length > 0) {
      const first = focusOrder.find(([field]) => clientErrors[field] !== undefined);
      if (first) document.getElementById(first[1])?.focus();
      return;
    }
    const accountId = state.accountId;
    create.mutate(validation.request, {
      onSuccess: (created) => {
        // Spec §4: videos cleared (the media stay stored), method immediate, 12:00, today.
        uploads.clear();
        setAttached([]);
        setAttempted(false);
        setServerErrors({});
        setState({
          ...initialFormState(accountId),
          ...accountDefaults(account?.settings, creator.data),
        });
        create.reset();
        onScheduled(created.posts.length);
      },
      onError: (error) => {
        setServerErrors(error instanceof ApiError ? serverFieldErrors(error.fields) : {});
      },
    });
  }

  const branded = state.commercialContent.enabled && state.commercialContent.brandedContent;
  const bannerDetail = create.error ? errorText(create.error) : null;
  const schedulingError = t('scheduler.errors.schedulingError');

  return (
    <Dialog
      open={open}
      onClose={onClose}
      variant="slide-over"
      title={t('scheduler.form.title')}
      description={t('scheduler.form.description')}
      closeLabel={t('scheduler.form.close')}
      footer={
        <div className="flex w-full flex-wrap items-center justify-end gap-3">
          {uploading && (
            <p
              className="flex w-full items-center gap-2 text-xs text-slate-500 sm:mr-auto sm:w-auto"
              aria-live="polite"
            >
              <Spinner className="h-3.5 w-3.5" />
              {t('scheduler.form.uploadsRunning')}
            </p>
          )}
          <Button variant="secondary" onClick={onClose}>
            {t('scheduler.form.cancel')}
          </Button>
          <Button
            type="submit"
            form={formId}
            disabled={submitDisabled}
            className="bg-gradient-to-r from-brand-600 to-brand-500 hover:from-brand-700 hover:to-brand-600 disabled:from-slate-300 disabled:to-slate-300"
          >
            {create.isPending && <Spinner className="h-4 w-4" />}
            {create.isPending ? t('scheduler.form.submitting') : t('scheduler.form.submit')}
          </Button>
        </div>
      }
    >
      <form id={formId} onSubmit={submit} noValidate className="space-y-8">
        <div aria-live="assertive" className="empty:hidden">
          {create.error && (
            <div
              role="alert"
              className="rounded-lg bg-red-50 px-4 py-3 text-sm text-red-800 ring-1 ring-inset ring-red-200"
            >
              <p className="font-semibold">{schedulingError}</p>
              {bannerDetail && bannerDetail !== schedulingError && (
                <p className="mt-1">{bannerDetail}</p>
              )}
            </div>
          )}
        </div>

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
              setServerErrors({});
              uploads.add(files);
            }}
            onRemove={(video) => {
              setServerErrors({});
              if (attached.some((id) => `media-${id}` === video.key)) {
                // An attached video belongs to another screen's work: detach, never delete.
                setAttached((current) => current.filter((id) => `media-${id}` !== video.key));
              } else {
                uploads.remove(video.key);
              }
              setState((current) => ({
                ...current,
                captions: Object.fromEntries(
                  Object.entries(current.captions).filter(([key]) => key !== video.key),
                ),
              }));
            }}
            onCaption={(key, caption) =>
              update({ captions: { ...state.captions, [key]: caption } })
            }
          />
        </Section>

        <Section title={t('scheduler.form.account.section')}>
          <AccountField
            selectId={ids.account}
            accounts={accounts}
            accountsLoading={accountsLoading}
            value={state.accountId}
            onChange={(accountId) => {
              defaultsAppliedFor.current = null;
              update({
                accountId,
                privacyLevel: '',
                allowComment: false,
                allowDuet: false,
                allowStitch: false,
              });
            }}
            error={message('accountId')}
            creator={{ data: creator.data, isLoading: creator.isLoading, error: creator.error }}
          />
          {state.accountId !== '' && (
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
