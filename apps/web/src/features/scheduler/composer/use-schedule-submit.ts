import type { Dispatch, FormEvent } from 'react';
import { ApiError } from '../../../lib/api-client.ts';
import { useCreateSchedule } from '../api/create-schedule.ts';
import { useAddToQueue, useDeleteDraft, useSaveDraft } from '../api/planning.ts';
import { firstFieldWithError, type FormFieldIds } from './form-field-ids.ts';
import { serverFieldErrors, type FieldErrors, type FormRequest } from './form-errors.ts';
import { buildDraftBody, type SelectedVideo } from './form-request.ts';
import type { ScheduleFormState } from './form-state.ts';
import type { DraftAction, ScheduleDraft } from './schedule-draft.ts';

/** What the form says above its fields about saving a draft. */
export type FormNotice = 'draftSaved' | 'needsVideo' | null;

interface ScheduleSubmitOptions {
  draft: ScheduleDraft;
  dispatch: Dispatch<DraftAction>;
  state: ScheduleFormState;
  videos: readonly SelectedVideo[];
  check: { request: FormRequest | null; clientErrors: FieldErrors };
  ids: FormFieldIds;
  accountId: string;
  timeZone: string;
  waiting: boolean;
  blocked: boolean;
  clearUploads: () => void;
  setNotice: (notice: FormNotice) => void;
  onScheduled: (immediate: boolean) => void;
}

/**
 * The form's two ways out: the submit (a schedule, or videos added to the queue) and 'Enregistrer
 * comme brouillon'. `waiting`: something other than a request in flight holds the submit button
 * (uploads, TikTok's answers); `blocked`: TikTok's guidelines hold it, with a reason shown.
 */
export function useScheduleSubmit({
  draft,
  dispatch,
  state,
  videos,
  check,
  ids,
  accountId,
  timeZone,
  waiting,
  blocked,
  clearUploads,
  setNotice,
  onScheduled,
}: ScheduleSubmitOptions) {
  const create = useCreateSchedule();
  const queue = useAddToQueue();
  const saveDraft = useSaveDraft();
  const deleteDraft = useDeleteDraft();
  const pending = create.isPending || queue.isPending;
  const submitDisabled = waiting || pending;

  function submit(event: FormEvent) {
    event.preventDefault();
    if (submitDisabled || blocked) return;
    dispatch({ type: 'submitted' });
    const { request } = check;
    if (request === null) {
      const first = firstFieldWithError(ids, check.clientErrors);
      if (first !== undefined) document.getElementById(first)?.focus();
      return;
    }
    setNotice(null);
    const handlers = {
      onSuccess: () => {
        clearUploads();
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
          clearUploads();
          dispatch({ type: 'draftSaved', accountId, now: new Date(), timeZone });
          setNotice('draftSaved');
        },
      },
    );
  }

  return {
    submit,
    saveAsDraft,
    pending,
    submitDisabled,
    error: create.error ?? queue.error,
    savingDraft: saveDraft.isPending,
    draftFailed: saveDraft.isError,
  };
}
