import type { Account } from '@cadence/shared/schemas/account';
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Dialog } from '../../../components/ui/dialog.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { wrappableHandle } from '../wrappable-handle.ts';
import { useDeleteAccount } from '../api/mutate-accounts.ts';

/** Confirms a deletion, saying how many pending posts go with it. `account` null = closed. */
export function DeleteAccountDialog({
  account,
  onClose,
  onDeleted,
}: {
  account: Account | null;
  onClose: () => void;
  onDeleted: (account: Account, cancelledPosts: number) => void;
}) {
  const { t } = useTranslation();
  const remove = useDeleteAccount();
  const { reset } = remove;
  const close = useCallback(() => {
    reset();
    onClose();
  }, [reset, onClose]);
  const username = account?.username ?? '';
  const pending = account?.scheduledCount ?? 0;

  function confirm() {
    if (!account) return;
    remove.mutate(account.id, {
      onSuccess: ({ cancelledPosts }) => {
        reset();
        onDeleted(account, cancelledPosts);
      },
    });
  }

  return (
    <Dialog
      open={account !== null}
      onClose={close}
      title={t('accounts.delete.title', { username: wrappableHandle(username) })}
      closeLabel={t('accounts.delete.close')}
      footer={
        <>
          <Button variant="secondary" onClick={close}>
            {t('accounts.delete.cancel')}
          </Button>
          <Button variant="danger" onClick={confirm} disabled={remove.isPending}>
            {remove.isPending && <Spinner className="h-4 w-4" />}
            {remove.isPending ? t('accounts.delete.deleting') : t('accounts.delete.confirm')}
          </Button>
        </>
      }
    >
      <div className="space-y-4 text-sm text-slate-600">
        <p>{t('accounts.delete.description')}</p>
        {pending > 0 && (
          <p className="rounded-xl bg-amber-50 px-3.5 py-3 font-medium text-amber-900 ring-1 ring-inset ring-amber-200">
            {pending === 1
              ? t('accounts.delete.pendingOne')
              : t('accounts.delete.pendingMany', { n: pending })}
          </p>
        )}
        {remove.error && (
          <Alert tone="error">
            {t(remove.error instanceof ApiError ? remove.error.translationKey : 'errors.internal')}
          </Alert>
        )}
      </div>
    </Dialog>
  );
}
