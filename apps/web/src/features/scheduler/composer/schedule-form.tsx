import type { Account } from '@cadence/shared/schemas/account';
import type { Draft } from '@cadence/shared/schemas/planning';
import { creatorOptionsForPost } from '@cadence/shared/schedule/creator-options';
import { localDateOf } from '@cadence/shared/schedule/planner';
import { useEffect, useId, useReducer, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { SlotSuggestion } from '../../../components/analytics/slot-suggestion.tsx';
import { Alert } from '../../../components/ui/alert.tsx';
import { Dialog } from '../../../components/ui/dialog.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { useVideoUploads } from '../../../lib/upload.ts';
import { useUploadGuard } from '../../../lib/upload-guard.tsx';
import { useCreateSchedule } from '../api/create-schedule.ts';
import { useCreatorInfo } from '../api/get-creator-info.ts';
import {
  useAddToQueue,
  useDeleteDraft,
  useSaveDraft,
  useSchedulePreview,
  useTodayCounts,
} from '../api/planning.ts';
import { useTimeZone } from '../../../lib/use-time-zone.ts';
import {
  buildDraftBody,
  buildPreviewRequest,
  creatorBlocksSubmit,
  creatorOptionsNote,
  postsDueLaterDay,
  hasUsualSettings,
  offeredPrivacyLevels,
  submitBlockedKey,
  serverFieldErrors,
  shownAtFields,
  type FormField,
} from './form-state.ts';
import { useKeyText } from '../../../lib/error-text.ts';
import { useDebouncedValue } from './use-debounced-value.ts';
import { usePublicConfig } from '../../../lib/public-config.ts';
import { useFormVideos } from './use-form-videos.ts';
import {
  draftAccountId,
  initialDraft,
  isRefused,
  scheduleDraftReducer,
  scheduleFormCheck,
  scheduleFormValues,
  usualSettingsEdit,
  type DraftEdit,
} from './schedule-draft.ts';
import { AccountField } from './account-field.tsx';
import { ConsentField } from './consent-field.tsx';
import { DraftsPanel } from '../drafts/drafts-panel.tsx';
import { DeliveryField } from './delivery-field.tsx';
import { Section } from '../components/form-controls.tsx';
import { OptionsNote } from './options-note.tsx';
import { PlanPreview } from '../slots/plan-preview.tsx';
import { PublishMethodField } from './publish-method-field.tsx';
import { QueuePanel } from '../slots/queue-panel.tsx';
import { ScheduleFormFooter } from './schedule-form-footer.tsx';
import { SchedulingError } from './scheduling-error.tsx';
import { TikTokOptions } from './tiktok-options.tsx';
import { VideoField, type FormVideo } from './video-field.tsx';

/**
 * The 'Nouvelle programmation' slide-over. It stays mounted while closed so uploads keep
 * running and a closed form reopens as it was left; only a successful submit resets it (spec §4).
 * Closing it, opening a draft over its videos, or leaving the page (open or closed: a link, the
 * tab) while an upload runs asks first ('Abandonner l'envoi ?': useUploadGuard).
 */
export function ScheduleForm({
  open,
  onClose,
  onScheduled,
  accounts,
  accountsLoading,
  requestedAccountId,
  requestedMediaId,
  requestedAt = null,
  requestedDraft = null,
  isPro,
}: {
  open: boolean;
  onClose: () => void;
  /** `immediate`: the posts go out now, so they leave the queue for the history at once. */
  onScheduled: (immediate: boolean) => void;
  accounts: readonly Account[];
  accountsLoading: boolean;
  /** From `?account=`: preselected once it is one of the schedulable accounts. */
  requestedAccountId: string | null;
  /** From `?media=`: an existing video (a story, a compilation) attached to the form. */
  requestedMediaId: string | null;
  /** From `?at=` (a local 'yyyy-MM-ddTHH:mm', the calendar's empty slots): 'scheduled' then. */
  requestedAt?: string | null;
  /** A draft opened from the drafts tab: taken in as the form's own list opens one. */
  requestedDraft?: { draft: Draft } | null;
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
    startDate: useId(),
    consent: useId(),
  };
  // Times are entered and shown in the person's zone; a fresh form's 'today' is theirs too.
  const { timeZone } = useTimeZone();
  const [draft, dispatch] = useReducer(scheduleDraftReducer, null, () =>
    initialDraft(requestedMediaId, new Date(), timeZone, requestedAt),
  );
  const uploads = useVideoUploads();
  const create = useCreateSchedule();
  const queue = useAddToQueue();
  const saveDraft = useSaveDraft();
  const deleteDraft = useDeleteDraft();
  const [notice, setNotice] = useState<'draftSaved' | 'needsVideo' | null>(null);
  const todayDate = localDateOf(new Date(), timeZone);
  const today = useTodayCounts(todayDate, timeZone, open);
  const accountId = draftAccountId(draft, requestedAccountId, accounts);
  const creator = useCreatorInfo(open ? accountId : '');
  const account = accounts.find((candidate) => candidate.id === accountId);
  const state = scheduleFormValues(draft, accountId);
  // While TikTok says the account cannot post now, posts due on a later day use its last answer.
  const laterDay = postsDueLaterDay(state, todayDate);
  const creatorOptions = creator.data && creatorOptionsForPost(creator.data, laterDay);
  const videos = useFormVideos(
    draft.attached,
    uploads.items,
    creatorOptions?.maxVideoPostDurationSec ?? null,
  );
  const videoCount = videos.length;
  const refusedCount = videos.filter(isRefused).length;
  const { request, clientErrors, errors } = scheduleFormCheck(state, videos, draft, timeZone);
  const previewRequest = open ? buildPreviewRequest(state, videos, timeZone) : null;
  const previewBody = useDebouncedValue(previewRequest, 250);
  const preview = useSchedulePreview(previewBody);
  // What the form already says at a field, the preview does not say again.
  const previewError =
    preview.error instanceof ApiError && shownAtFields(preview.error.fields, errors)
      ? null
      : preview.error;
  const message = (field: FormField) => {
    const key = errors[field];
    return key === undefined ? undefined : keyText(key);
  };
  const update = (patch: DraftEdit) => dispatch({ type: 'edit', patch });

  // The videos still sending go as a ✕ would take them; finished ones stay for when the form
  // opens again.
  const guard = useUploadGuard([uploads], {
    onAbandoned: (keys) =>
      keys.forEach((key, index) =>
        dispatch({
          type: 'videoRemoved',
          key,
          attachedId: null,
          remaining: videoCount - index - 1,
        }),
      ),
  });
  const requestClose = () => guard.ask('close', onClose);
  const openDraft = (saved: Draft) =>
    // The draft replaces the form's videos: one still sending would be lost unasked.
    guard.ask('openDraft', () => {
      uploads.clear();
      setNotice(null);
      dispatch({ type: 'openDraft', draft: saved, now: new Date(), timeZone });
    });
  // A draft the drafts tab opened, taken in once; the one the form already holds stays as it
  // is, with the edits made since it was opened.
  const takenDraftRequest = useRef<{ draft: Draft } | null>(null);
  useEffect(() => {
    if (requestedDraft === null || takenDraftRequest.current === requestedDraft) return;
    takenDraftRequest.current = requestedDraft;
    if (requestedDraft.draft.id !== draft.savedDraftId) openDraft(requestedDraft.draft);
  });
  function removeVideo(video: FormVideo, remaining: number) {
    // An attached video belongs to another screen's work: detach, never delete.
    const attachedId = draft.attached.find((id) => `media-${id}` === video.key) ?? null;
    if (attachedId === null) uploads.remove(video.key);
    dispatch({ type: 'videoRemoved', key: video.key, attachedId, remaining });
  }

  const uploading = videos.some((video) => video.status === 'uploading');
  const cannotPost = creatorBlocksSubmit(creator.data, creator.isError, laterDay);
  const pending = create.isPending || queue.isPending;
  // Whether TikTok audited the app comes with the server's configuration. Until it is in, the
  // privacy levels wait as they do for the account's creator info: an unaudited app may offer
  // 'Only me' alone. Should it never come, the server's own rule still stands.
  const config = usePublicConfig();
  const audited = config.data?.tiktokAppAudited ?? true;
  const submitDisabled =
    uploading ||
    pending ||
    cannotPost ||
    config.isPending ||
    (accountId !== '' && creator.isLoading);
  const blockedKey = submitBlockedKey(
    state.commercialContent,
    creatorOptions ?? undefined,
    audited,
    state.delivery,
  );
  const offered =
    creator.data && creatorOptions && !config.isPending
      ? {
          ...creator.data,
          ...creatorOptions,
          privacyLevelOptions: offeredPrivacyLevels(creatorOptions, audited),
        }
      : undefined;
  const usual = hasUsualSettings(account?.settings)
    ? () => {
        const patch = usualSettingsEdit(account, offered, state);
        if (patch) update(patch);
      }
    : undefined;

  const focusOrder: [FormField, string][] = [
    ['videos', ids.videos],
    ['accountId', ids.account],
    ['privacyLevel', ids.privacy],
    ['date', ids.date],
    ['time', ids.time],
    ['interval.count', ids.count],
    ['interval.value', ids.value],
    ['interval.startDate', ids.startDate],
    ['interval.startTime', ids.startTime],
    ['consent', ids.consent],
  ];

  // A refusal from the server (a date that passed in the meantime, an account that lost its
  // access) moves focus to its first field once the field shows why, as the form's own checks
  // do at submit. Any edit clears the server's errors, so focus never moves while one types.
  const serverErrors = draft.serverErrors;
  const refusedFieldId = focusOrder.find(([field]) => serverErrors[field] !== undefined)?.[1];
  useEffect(() => {
    if (refusedFieldId !== undefined) document.getElementById(refusedFieldId)?.focus();
  }, [serverErrors, refusedFieldId]);

  function submit(event: FormEvent) {
    event.preventDefault();
    if (submitDisabled || blockedKey !== null) return;
    dispatch({ type: 'submitted' });
    if (request === null) {
      const first = focusOrder.find(([field]) => clientErrors[field] !== undefined);
      if (first) document.getElementById(first[1])?.focus();
      return;
    }
    setNotice(null);
    const handlers = {
      onSuccess: () => {
        uploads.clear();
        dispatch({ type: 'scheduled', accountId, now: new Date(), timeZone });
        create.reset();
        queue.reset();
        onScheduled(state.publishType === 'immediate');
      },
      onError: (error: Error) => {
        dispatch({
          type: 'refused',
          errors: error instanceof ApiError ? serverFieldErrors(error.fields) : {},
        });
      },
    };
    if (request.kind === 'schedule') {
      create.mutate(request.body, handlers);
      return;
    }
    // The queue's endpoint takes no draft: the draft it came from is deleted once queued.
    const fromDraft = draft.savedDraftId;
    queue.mutate(request.body, {
      ...handlers,
      onSuccess: () => {
        if (fromDraft !== null) deleteDraft.mutate(fromDraft);
        handlers.onSuccess();
      },
    });
  }

  function saveAsDraft() {
    const body = buildDraftBody(state, videos);
    if (body.mediaIds.length === 0) {
      setNotice('needsVideo');
      return;
    }
    saveDraft.mutate(
      { id: draft.savedDraftId, body },
      {
        onSuccess: () => {
          uploads.clear();
          dispatch({ type: 'draftSaved', accountId, now: new Date(), timeZone });
          setNotice('draftSaved');
        },
      },
    );
  }

  // An inbox draft carries no labels: the consent names no Branded Content Policy for it.
  const branded =
    state.delivery !== 'inbox' &&
    state.commercialContent.enabled &&
    state.commercialContent.brandedContent;

  return (
    <>
      <Dialog
        open={open}
        onClose={requestClose}
        variant="slide-over"
        title={t('scheduler.form.title')}
        description={t('scheduler.form.description')}
        closeLabel={t('scheduler.form.close')}
        footer={
          <ScheduleFormFooter
            formId={formId}
            uploading={uploading}
            pending={pending}
            submitDisabled={submitDisabled}
            blockedReason={blockedKey === null ? null : keyText(blockedKey)}
            onCancel={requestClose}
            onSaveDraft={saveAsDraft}
            savingDraft={saveDraft.isPending}
          />
        }
      >
        <form id={formId} onSubmit={submit} noValidate className="space-y-8">
          <DraftsPanel
            enabled={open}
            accounts={accounts}
            currentDraftId={draft.savedDraftId}
            onOpen={openDraft}
            onDeleted={(id) => dispatch({ type: 'draftDeleted', id })}
          />
          <div aria-live="polite" className="empty:hidden">
            {notice === 'draftSaved' && <Alert tone="success">{t('planner.drafts.saved')}</Alert>}
            {notice === 'needsVideo' && (
              <Alert tone="error">{t('planner.drafts.needsVideo')}</Alert>
            )}
            {saveDraft.isError && <Alert tone="error">{t('planner.drafts.failed')}</Alert>}
            {draft.savedDraftId !== null && notice === null && (
              <Alert tone="info">{t('planner.drafts.editing')}</Alert>
            )}
          </div>
          <SchedulingError error={create.error ?? queue.error} />

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
              inputId={ids.videos}
              videos={videos}
              captions={state.captions}
              covers={state.covers}
              onCover={(key, ms) => dispatch({ type: 'cover', key, ms })}
              error={message('videos')}
              captionErrors={(index) => message(`caption:${index}`)}
              onAdd={(files) => {
                dispatch({ type: 'videosAdded' });
                uploads.add(files);
              }}
              onRemove={(video) => removeVideo(video, videoCount - 1)}
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
              today={today.data}
              creator={{ data: creator.data, isLoading: creator.isLoading, error: creator.error }}
            />
            {accountId !== '' && (
              <TikTokOptions
                privacyId={ids.privacy}
                creator={offered}
                optionsNote={
                  <OptionsNote note={creatorOptionsNote(creator.data, creatorOptions)} />
                }
                audited={audited}
                publicAccount={blockedKey === 'scheduler.form.unaudited.publicAccount'}
                inbox={state.delivery === 'inbox'}
                state={state}
                onChange={update}
                onUseUsual={usual}
                errors={{
                  privacyLevel: message('privacyLevel'),
                  commercialContent: message('commercialContent'),
                }}
              />
            )}
            {accountId !== '' && (
              <DeliveryField
                inbox={state.delivery === 'inbox'}
                onChange={(inbox) => update({ delivery: inbox ? 'inbox' : 'direct' })}
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
            {previewRequest !== null && (
              <PlanPreview
                preview={preview.data}
                posts={previewRequest.mediaIds.length}
                loading={preview.isFetching || previewBody === null}
                error={previewError}
                postpone={state.postponeOverCap}
                onPostpone={(postponeOverCap) => update({ postponeOverCap })}
              />
            )}
            {state.publishType === 'queue' && (
              <QueuePanel accountId={accountId} videoCount={videoCount} />
            )}
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
      {guard.dialog}
    </>
  );
}
