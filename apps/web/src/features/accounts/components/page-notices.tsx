import type { Account } from '@cadence/shared/schemas/account';
import { useTranslation } from 'react-i18next';
import type { CallbackOutcome } from '../callback-outcome.ts';
import { PageBanner } from './page-banner.tsx';

const callbackErrorKeys = {
  connection: 'accounts.callback.connection',
  token: 'accounts.callback.token',
  state: 'accounts.callback.state',
} as const;

/**
 * The one message at the top of the page: what the last action did, or else the OAuth callback's
 * outcome. Announced politely as it changes.
 */
export function PageNotices({
  notice,
  onDismissNotice,
  outcome,
  accounts,
  loading,
  onDismissOutcome,
}: {
  notice: string | null;
  onDismissNotice: () => void;
  outcome: CallbackOutcome | null;
  accounts: Account[] | undefined;
  loading: boolean;
  onDismissOutcome: () => void;
}) {
  return (
    <div aria-live="polite" className="mb-6 space-y-3 empty:hidden">
      {notice ? (
        <PageBanner tone="success" onDismiss={onDismissNotice}>
          {notice}
        </PageBanner>
      ) : (
        outcome && (
          <OutcomeBanner
            outcome={outcome}
            accounts={accounts}
            loading={loading}
            onDismiss={onDismissOutcome}
          />
        )
      )}
    </div>
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
