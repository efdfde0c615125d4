import type { Account } from '@cadence/shared/schemas/account';
import type { Draft } from '@cadence/shared/schemas/planning';
import { localDateOf } from '@cadence/shared/schedule/planner';
import { useEffect, useReducer, useRef, useState, type Dispatch } from 'react';
import { useKeyText } from '../../../lib/error-text.ts';
import { useVideoUploads, type VideoUploads } from '../../../lib/upload.ts';
import { useUploadGuard } from '../../../lib/upload-guard.tsx';
import { useTimeZone } from '../../../lib/use-time-zone.ts';
import { useTodayCounts } from '../api/planning.ts';
import { useFocusOnRefusal, useFormFieldIds } from './form-field-ids.ts';
import type { FormField } from './form-errors.ts';
import { hasUsualSettings } from './form-state.ts';
import {
  draftAccountId,
  initialDraft,
  scheduleDraftReducer,
  scheduleFormCheck,
  scheduleFormValues,
  usualSettingsEdit,
  type DraftAction,
  type DraftEdit,
  type ScheduleDraft,
} from './schedule-draft.ts';
import { useFormPreview } from './use-form-preview.ts';
import { useFormVideos } from './use-form-videos.ts';
import { useScheduleSubmit, type FormNotice } from './use-schedule-submit.ts';
import { useTikTokAllowance } from './use-tiktok-allowance.ts';
import type { FormVideo } from './video-field.tsx';

export interface ScheduleFormProps {
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
}

/**
 * The composer's state and what it does: the person's edits (schedule-draft.ts), the videos and
 * their uploads, TikTok's rules, the plan preview, and the submit. Leaving with an upload running
 * (closing, opening a draft over its videos, a link, the tab) asks first (useUploadGuard).
 */
export function useScheduleForm({
  open,
  onClose,
  onScheduled,
  accounts,
  requestedAccountId,
  requestedMediaId,
  requestedAt = null,
  requestedDraft = null,
}: ScheduleFormProps) {
  const keyText = useKeyText();
  const ids = useFormFieldIds();
  // Times are entered and shown in the person's zone; a fresh form's 'today' is theirs too.
  const { timeZone } = useTimeZone();
  const [draft, dispatch] = useReducer(scheduleDraftReducer, null, () =>
    initialDraft(requestedMediaId, new Date(), timeZone, requestedAt),
  );
  const uploads = useVideoUploads();
  const [notice, setNotice] = useState<FormNotice>(null);
  const todayDate = localDateOf(new Date(), timeZone);
  const today = useTodayCounts(todayDate, timeZone, open);
  const accountId = draftAccountId(draft, requestedAccountId, accounts);
  const account = accounts.find((candidate) => candidate.id === accountId);
  const state = scheduleFormValues(draft, accountId);
  const tiktok = useTikTokAllowance(open ? accountId : '', state, todayDate);
  const { creator } = tiktok;
  const videos = useFormVideos(
    draft.attached,
    uploads.items,
    tiktok.creatorOptions?.maxVideoPostDurationSec ?? null,
  );
  const videoCount = videos.length;
  const check = scheduleFormCheck(state, videos, draft, timeZone);
  const preview = useFormPreview(open, state, videos, timeZone, check.errors);
  const message = (field: FormField) => {
    const key = check.errors[field];
    return key === undefined ? undefined : keyText(key);
  };
  const update = (patch: DraftEdit) => dispatch({ type: 'edit', patch });

  const guarded = useGuardedActions(uploads, dispatch, {
    videoCount,
    draft,
    timeZone,
    onClose,
    setNotice,
    requestedDraft,
  });
  const uploading = videos.some((video) => video.status === 'uploading');
  const submission = useScheduleSubmit({
    draft,
    dispatch,
    state,
    videos,
    check,
    ids,
    accountId,
    timeZone,
    waiting:
      uploading ||
      tiktok.cannotPost ||
      tiktok.configPending ||
      (accountId !== '' && creator.isLoading),
    blocked: tiktok.blockedKey !== null,
    clearUploads: () => uploads.clear(),
    setNotice,
    onScheduled,
  });
  const usual = hasUsualSettings(account?.settings)
    ? () => {
        const patch = usualSettingsEdit(account, tiktok.offered, state);
        if (patch) update(patch);
      }
    : undefined;
  useFocusOnRefusal(ids, draft.serverErrors);

  return {
    ids,
    timeZone,
    draft,
    dispatch,
    update,
    state,
    accountId,
    today,
    tiktok,
    videos,
    addVideos: (files: File[]) => uploads.add(files),
    uploading,
    errors: check.errors,
    message,
    preview,
    notice,
    usual,
    submission,
    ...guarded,
  };
}

/**
 * What could stop the uploads, each asking first while one is sending: closing the form, opening
 * a draft over its videos (the form's list or the drafts tab's `requestedDraft`), removing a
 * video. `videoCount`: how many videos the form holds now.
 */
function useGuardedActions(
  uploads: VideoUploads,
  dispatch: Dispatch<DraftAction>,
  {
    videoCount,
    draft,
    timeZone,
    onClose,
    setNotice,
    requestedDraft,
  }: {
    videoCount: number;
    draft: ScheduleDraft;
    timeZone: string;
    onClose: () => void;
    setNotice: (notice: FormNotice) => void;
    requestedDraft: { draft: Draft } | null;
  },
) {
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
  function removeVideo(video: FormVideo) {
    // An attached video belongs to another screen's work: detach, never delete.
    const attachedId = draft.attached.find((id) => `media-${id}` === video.key) ?? null;
    if (attachedId === null) uploads.remove(video.key);
    dispatch({ type: 'videoRemoved', key: video.key, attachedId, remaining: videoCount - 1 });
  }
  return { requestClose, openDraft, removeVideo, guardDialog: guard.dialog };
}

export type ScheduleFormModel = ReturnType<typeof useScheduleForm>;
