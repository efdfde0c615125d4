import type { Post } from '@cadence/shared/schemas/schedule';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useErrorText } from '../../../lib/error-text.ts';
import { useCancelPost, useRestorePost, useRetryPost } from '../api/post-actions.ts';
import type { Notice } from '../page-notice.tsx';
import type { PostActions } from './post-buttons.tsx';

/**
 * What a post's row can do, shared by every view of the scheduler: retry and restore at once,
 * edit, reschedule and cancel through their dialogs (PostActionDialogs), a cancel undone from its
 * toast. Each outcome is said through `setNotice`.
 */
export function usePostActions(setNotice: (notice: Notice | null) => void) {
  const { t } = useTranslation();
  const errorText = useErrorText('scheduler.errors.actionFailed');
  const [rescheduling, setRescheduling] = useState<Post | null>(null);
  const [editing, setEditing] = useState<Post | null>(null);
  const [confirmingCancel, setConfirmingCancel] = useState<Post | null>(null);
  const [undo, setUndo] = useState<{ id: string; caption: string } | null>(null);
  const [focusRequest, setFocusRequest] = useState<{ postId: string } | null>(null);

  const cancel = useCancelPost();
  const retry = useRetryPost();
  const restore = useRestorePost();
  const busyId = [cancel, retry, restore].find((mutation) => mutation.isPending)?.variables ?? null;

  const restorePost = (id: string, { focusRow = false } = {}) =>
    restore.mutate(id, {
      onSuccess: () => {
        setNotice({ tone: 'success', text: t('scheduler.notices.restored') });
        if (focusRow) setFocusRequest({ postId: id });
      },
      onError: (error) => setNotice({ tone: 'error', text: errorText(error) }),
    });

  const actions: PostActions = {
    busyId,
    onEdit: (post) => setEditing(post),
    onCancel: (post) => setConfirmingCancel(post),
    onRestore: (post) => restorePost(post.id),
    onRetry: (post) =>
      retry.mutate(post.id, {
        onSuccess: () => setNotice({ tone: 'success', text: t('scheduler.notices.retried') }),
        onError: (error) => setNotice({ tone: 'error', text: errorText(error) }),
      }),
    onReschedule: (post) => setRescheduling(post),
  };

  const confirmCancel = (post: Post) =>
    cancel.mutate(post.id, {
      onSuccess: () => {
        setConfirmingCancel(null);
        setNotice(null);
        setUndo({ id: post.id, caption: post.title.trim() || t('scheduler.post.untitled') });
      },
      onError: (error) => {
        setConfirmingCancel(null);
        setNotice({ tone: 'error', text: errorText(error) });
      },
    });

  return {
    actions,
    focusRequest,
    rescheduling,
    setRescheduling,
    editing,
    setEditing,
    confirmingCancel,
    setConfirmingCancel,
    cancelling: cancel.isPending,
    confirmCancel,
    undo,
    setUndo,
    restorePost,
  };
}

export type PostActionsState = ReturnType<typeof usePostActions>;
