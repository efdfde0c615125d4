import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button.tsx';
import { Dialog } from '../../../components/ui/dialog.tsx';

/**
 * 'Abandonner l'envoi ?' — asked over the composer when it is closed (Escape, ✕, a click outside,
 * 'Annuler') while videos are still being sent: `uploading` of them when it was asked; null =
 * closed. Rendered after the composer's own dialog so that it opens over it.
 */
export function AbandonUploadDialog({
  uploading,
  onKeep,
  onAbandon,
}: {
  uploading: number | null;
  onKeep: () => void;
  onAbandon: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Dialog
      open={uploading !== null}
      onClose={onKeep}
      title={t('scheduler.abandonUpload.title', { count: uploading ?? 1 })}
      closeLabel={t('scheduler.abandonUpload.close')}
      footer={
        <>
          <Button variant="secondary" onClick={onKeep}>
            {t('scheduler.abandonUpload.keep')}
          </Button>
          <Button variant="danger" onClick={onAbandon}>
            {t('scheduler.abandonUpload.confirm')}
          </Button>
        </>
      }
    >
      <p className="break-words text-sm text-slate-600">
        {t('scheduler.abandonUpload.description', { count: uploading ?? 1 })}
      </p>
    </Dialog>
  );
}
