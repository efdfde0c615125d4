import { useTranslation } from 'react-i18next';
import { Button } from './ui/button.tsx';
import { Dialog } from './ui/dialog.tsx';

/** What would stop the uploads: closing the composer, leaving the page, opening a draft over them. */
export type AbandonReason = 'close' | 'leave' | 'openDraft';

const descriptionKeys = {
  close: 'media.abandonUpload.whenClosing',
  leave: 'media.abandonUpload.whenLeaving',
  openDraft: 'media.abandonUpload.whenOpeningDraft',
} as const satisfies Record<AbandonReason, string>;

/**
 * 'Abandonner l'envoi ?' — asked when something would stop videos still being sent (`uploading`
 * of them when it was asked; null = closed), saying what (`reason`). Asked over the composer too:
 * rendered after it, it opens over it. Shown by useUploadGuard (lib/upload-guard.tsx).
 */
export function AbandonUploadDialog({
  uploading,
  reason,
  onKeep,
  onAbandon,
}: {
  uploading: number | null;
  reason: AbandonReason;
  onKeep: () => void;
  onAbandon: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Dialog
      open={uploading !== null}
      onClose={onKeep}
      title={t('media.abandonUpload.title', { count: uploading ?? 1 })}
      closeLabel={t('media.abandonUpload.close')}
      footer={
        <>
          <Button variant="secondary" onClick={onKeep}>
            {t('media.abandonUpload.keep')}
          </Button>
          <Button variant="danger" onClick={onAbandon}>
            {t('media.abandonUpload.confirm')}
          </Button>
        </>
      }
    >
      <p className="break-words text-sm text-slate-600">
        {t(descriptionKeys[reason], { count: uploading ?? 1 })}
      </p>
    </Dialog>
  );
}
