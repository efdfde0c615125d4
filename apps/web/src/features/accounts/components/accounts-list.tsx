import type { Account } from '@cadence/shared/schemas/account';
import type { UseQueryResult } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Alert } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { AccountCard } from './account-card.tsx';
import { AccountsSkeleton } from './accounts-skeleton.tsx';
import { EmptyState } from './empty-state.tsx';

/** The accounts as cards, or while they load a skeleton, or the load error, or the empty state. */
export function AccountsList({
  accounts,
  onAdd,
  onOpenSettings,
  onDelete,
}: {
  accounts: UseQueryResult<Account[]>;
  /** Null while the add form is open: the empty state then offers no second way in. */
  onAdd: (() => void) | null;
  onOpenSettings: (account: Account) => void;
  onDelete: (account: Account) => void;
}) {
  const { t } = useTranslation();
  if (accounts.isPending) return <AccountsSkeleton />;
  if (accounts.isError) {
    return (
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
    );
  }
  if (accounts.data.length === 0) return <EmptyState onAdd={onAdd} />;
  return (
    <ul aria-label={t('accounts.list.label')} className="grid gap-4 sm:grid-cols-2 xl:grid-cols-3">
      {accounts.data.map((account) => (
        <li key={account.id} className="min-w-0">
          <AccountCard account={account} onOpenSettings={onOpenSettings} onDelete={onDelete} />
        </li>
      ))}
    </ul>
  );
}
