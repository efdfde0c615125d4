import type { Post } from '@cadence/shared/schemas/schedule';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button.tsx';
import { Dialog } from '../../../components/ui/dialog.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';

/** 'Annuler cette publication ?' — the one question before a cancel. `post` null = closed. */
export function CancelPostDialog({
  post,
  busy,
  onConfirm,
  onClose,
}: {
  post: Post | null;
  busy: boolean;
  onConfirm: (post: Post) => void;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const caption = post?.title.trim() || t('scheduler.post.untitled');
  return (
    <Dialog
      open={post !== null}
      onClose={onClose}
      title={t('scheduler.cancelConfirm.title')}
      closeLabel={t('scheduler.cancelConfirm.close')}
      footer={
        <>
          <Button variant="secondary" onClick={onClose}>
            {t('scheduler.cancelConfirm.keep')}
          </Button>
          <Button variant="danger" disabled={busy} onClick={() => post && onConfirm(post)}>
            {busy && <Spinner className="h-4 w-4" />}
            {t('scheduler.cancelConfirm.confirm')}
          </Button>
        </>
      }
    >
      <p className="break-words text-sm text-slate-600">
        {t('scheduler.cancelConfirm.description', {
          caption,
          username: post?.accountUsername ?? '',
        })}
      </p>
    </Dialog>
  );
}
