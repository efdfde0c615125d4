import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import type { Notice } from '../page-notice.tsx';
import { CancelPostDialog } from './cancel-post-dialog.tsx';
import { EditPostDialog } from './edit-post-dialog.tsx';
import { RescheduleDialog } from './reschedule-dialog.tsx';
import { UndoToast } from './undo-toast.tsx';
import type { PostActionsState } from './use-post-actions.ts';

/** The row actions' dialogs and the cancel's undo toast, for the post `state` holds for each. */
export function PostActionDialogs({
  state,
  setNotice,
}: {
  state: PostActionsState;
  setNotice: (notice: Notice | null) => void;
}) {
  const { t } = useTranslation();
  const { setRescheduling, setEditing, setConfirmingCancel, setUndo, undo } = state;
  const closeReschedule = useCallback(() => setRescheduling(null), [setRescheduling]);
  const closeEdit = useCallback(() => setEditing(null), [setEditing]);
  const closeCancel = useCallback(() => setConfirmingCancel(null), [setConfirmingCancel]);
  const expireUndo = useCallback(() => setUndo(null), [setUndo]);
  return (
    <>
      <RescheduleDialog
        post={state.rescheduling}
        onClose={closeReschedule}
        onDone={() => {
          setRescheduling(null);
          setNotice({ tone: 'success', text: t('scheduler.notices.rescheduled') });
        }}
      />
      <EditPostDialog
        post={state.editing}
        onClose={closeEdit}
        onDone={() => {
          setEditing(null);
          setNotice({ tone: 'success', text: t('scheduler.notices.edited') });
        }}
      />
      <CancelPostDialog
        post={state.confirmingCancel}
        busy={state.cancelling}
        onConfirm={state.confirmCancel}
        onClose={closeCancel}
      />
      <UndoToast
        undo={undo}
        onExpire={expireUndo}
        onUndo={() => {
          // The toast's button held the focus: it goes to the post's row once it is back.
          if (undo) state.restorePost(undo.id, { focusRow: true });
          setUndo(null);
        }}
      />
    </>
  );
}
