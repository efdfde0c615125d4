import type { Account } from '@cadence/shared/schemas/account';
import type { QueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert } from '../../components/ui/alert.tsx';
import { Button, buttonClassName } from '../../components/ui/button.tsx';
import { PlusIcon } from '../../components/ui/icons.tsx';
import { PageHeader } from '../../components/ui/page-header.tsx';
import { ApiError } from '../../lib/api-client.ts';
import { getAccountsQueryOptions, useAccounts } from '../../lib/accounts.ts';
import type { CallbackOutcome } from './callback-outcome.ts';
import { AccountCard } from './components/account-card.tsx';
import { AccountSettingsDialog } from './components/account-settings-dialog.tsx';
import { AccountsSkeleton } from './components/accounts-skeleton.tsx';
import { AddAccountForm } from './components/add-account-form.tsx';
import { DeleteAccountDialog } from './components/delete-account-dialog.tsx';
import { EmptyState } from './components/empty-state.tsx';
import { MismatchDialog } from './components/mismatch-dialog.tsx';
import { PageBanner } from './components/page-banner.tsx';
import { useCallbackOutcome } from './hooks/use-callback-outcome.ts';

const callbackErrorKeys = {
  connection: 'accounts.callback.connection',
  token: 'accounts.callback.token',
  state: 'accounts.callback.state',
} as const;

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
  const addButtonRef = useRef<HTMLButtonElement>(null);
  const wasAdding = useRef(false);

  // Closing the form gives focus back to the button that opened it.
  useEffect(() => {
    if (wasAdding.current && !adding) addButtonRef.current?.focus();
    wasAdding.current = adding;
  }, [adding]);

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

      <div aria-live="polite" className="mb-6 space-y-3 empty:hidden">
        {notice ? (
          <PageBanner tone="success" onDismiss={() => setNotice(null)}>
            {notice}
          </PageBanner>
        ) : (
          outcome && (
            <OutcomeBanner
              outcome={outcome}
              accounts={accounts.data}
              loading={accounts.isPending}
              onDismiss={dismissOutcome}
            />
          )
        )}
      </div>

      {adding && (
        <AddAccountForm
          onCancel={() => setAdding(false)}
          onAdded={(account) => {
            setAdding(false);
            announce(t('accounts.add.added', { username: account.username }));
          }}
        />
      )}

      {accounts.isPending ? (
        <AccountsSkeleton />
      ) : accounts.isError ? (
        <Alert tone="error">
          <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
            <p>
              {t('accounts.errors.loadFailed')}{' '}
              {t(
                accounts.error instanceof ApiError
                  ? accounts.error.translationKey
                  : 'errors.internal',
              )}
            </p>
            <Button variant="secondary" onClick={() => void accounts.refetch()}>
              {t('accounts.errors.retry')}
            </Button>
          </div>
        </Alert>
      ) : accounts.data.length === 0 ? (
        <EmptyState onAdd={adding ? null : openForm} />
      ) : (
        <ul
          aria-label={t('accounts.list.label')}
          className="grid gap-4 sm:grid-cols-2 xl:grid-cols-3"
        >
          {accounts.data.map((account) => (
            <li key={account.id} className="min-w-0">
              <AccountCard
                account={account}
                onOpenSettings={setSettingsFor}
                onDelete={setDeleting}
              />
            </li>
          ))}
        </ul>
      )}

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

function OutcomeBanner({
  outcome,
  accounts,
  loading,
  onDismiss,
}: {
  outcome: CallbackOutcome;
  accounts: Account[] | undefined;
  loading: boolean;
  onDismiss: () => void;
}) {
  const { t } = useTranslation();
  // The mismatch is a choice, asked in its own dialog.
  if (outcome.kind === 'mismatch') return null;
  if (outcome.kind === 'error') {
    return (
      <PageBanner tone="error" onDismiss={onDismiss} arrival>
        {t(callbackErrorKeys[outcome.error])}
      </PageBanner>
    );
  }
  // Wait for the list so the message does not change under the reader's eyes.
  if (loading) return null;
  const account = accounts?.find((candidate) => candidate.id === outcome.accountId);
  return (
    <PageBanner tone="success" onDismiss={onDismiss} arrival>
      {account
        ? t('accounts.callback.connectedAs', { username: account.username })
        : t('accounts.callback.connected')}
    </PageBanner>
  );
}
