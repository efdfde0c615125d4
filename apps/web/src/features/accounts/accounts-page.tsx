import type { Account } from '@cadence/shared/schemas/account';
import type { QueryClient } from '@tanstack/react-query';
import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { buttonClassName } from '../../components/ui/button.tsx';
import { PlusIcon } from '../../components/ui/icons.tsx';
import { PageHeader } from '../../components/ui/page-header.tsx';
import { getAccountsQueryOptions, useAccounts } from '../../lib/accounts.ts';
import { AccountSettingsDialog } from './components/account-settings-dialog.tsx';
import { AccountsList } from './components/accounts-list.tsx';
import { AddAccountForm } from './components/add-account-form.tsx';
import { DeleteAccountDialog } from './components/delete-account-dialog.tsx';
import { MismatchDialog } from './components/mismatch-dialog.tsx';
import { PageNotices } from './components/page-notices.tsx';
import { useCallbackOutcome } from './hooks/use-callback-outcome.ts';
import { useFocusOnClose } from './hooks/use-focus-on-close.ts';

/** The list the screen shows: the page's first screen is drawn with it (app/router.tsx). */
export function accountsFirstData(client: QueryClient): Promise<void> {
  return client.prefetchQuery(getAccountsQueryOptions());
}

/** 'Automatisation TikTok' (/tiktok): add, connect, configure and delete TikTok accounts. */
export function AccountsPage() {
  const { t } = useTranslation();
  const accounts = useAccounts();
  const [outcome, dismissOutcome] = useCallbackOutcome();
  // What the last action did; replaces the callback's banner so only one message shows at a time.
  const [notice, setNotice] = useState<string | null>(null);
  const [adding, setAdding] = useState(false);
  const [settingsFor, setSettingsFor] = useState<Account | null>(null);
  const [deleting, setDeleting] = useState<Account | null>(null);
  // Closing the form gives focus back to the button that opened it.
  const addButtonRef = useFocusOnClose<HTMLButtonElement>(adding);

  function announce(message: string) {
    dismissOutcome();
    setNotice(message);
  }

  const closeSettings = useCallback(() => setSettingsFor(null), []);
  const closeDelete = useCallback(() => setDeleting(null), []);
  const openForm = () => setAdding(true);

  return (
    <>
      <PageHeader
        title={t('accounts.title')}
        description={t('accounts.description')}
        actions={
          !adding && (
            <button
              ref={addButtonRef}
              type="button"
              onClick={openForm}
              className={buttonClassName('primary')}
            >
              <PlusIcon className="h-4 w-4 shrink-0" />
              {t('accounts.add.open')}
            </button>
          )
        }
      />

      <PageNotices
        notice={notice}
        onDismissNotice={() => setNotice(null)}
        outcome={outcome}
        accounts={accounts.data}
        loading={accounts.isPending}
        onDismissOutcome={dismissOutcome}
      />

      {adding && (
        <AddAccountForm
          onCancel={() => setAdding(false)}
          onAdded={(account) => {
            setAdding(false);
            announce(t('accounts.add.added', { username: account.username }));
          }}
        />
      )}

      <AccountsList
        accounts={accounts}
        onAdd={adding ? null : openForm}
        onOpenSettings={setSettingsFor}
        onDelete={setDeleting}
      />

      <MismatchDialog
        pendingId={outcome?.kind === 'mismatch' ? outcome.pendingId : null}
        onKept={(username) => announce(t('accounts.callback.connectedAs', { username }))}
        onCancelled={() => announce(t('accounts.mismatch.cancelled'))}
        onGone={dismissOutcome}
      />
      <AccountSettingsDialog
        account={settingsFor}
        onClose={closeSettings}
        onSaved={(account) => {
          setSettingsFor(null);
          announce(t('accounts.settings.saved', { username: account.username }));
        }}
      />
      <DeleteAccountDialog
        account={deleting}
        onClose={closeDelete}
        onDeleted={(account, cancelledPosts) => {
          setDeleting(null);
          const { username } = account;
          announce(
            cancelledPosts === 0
              ? t('accounts.delete.deleted', { username })
              : cancelledPosts === 1
                ? t('accounts.delete.deletedOne', { username })
                : t('accounts.delete.deletedMany', { username, n: cancelledPosts }),
          );
        }}
      />
    </>
  );
}
