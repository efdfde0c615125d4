import type { Account } from '@cadence/shared/schemas/account';
import { useEffect, useId, useState, type ReactNode } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Button, buttonClassName } from '../../../components/ui/button.tsx';
import {
  AlertIcon,
  CalendarIcon,
  LinkIcon,
  RefreshIcon,
  TrashIcon,
} from '../../../components/ui/icons.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { formatDateTime } from '../../../lib/format.ts';
import { useLanguage } from '../../../lib/i18n.ts';
import { useTimeZone } from '../../../lib/use-time-zone.ts';
import { useConnectAccount } from '../api/mutate-accounts.ts';
import { AccountAvatar } from '../../../components/ui/account-avatar.tsx';
import { SettingsIcon } from './icons.tsx';
import { StatusChip } from './status-chip.tsx';

export function AccountCard({
  account,
  onOpenSettings,
  onDelete,
}: {
  account: Account;
  onOpenSettings: (account: Account) => void;
  onDelete: (account: Account) => void;
}) {
  const { t } = useTranslation();
  const headingId = useId();
  const { username, status } = account;
  const connected = status === 'connected';

  return (
    <article
      aria-labelledby={headingId}
      className="flex h-full flex-col rounded-2xl bg-white p-5 shadow-sm ring-1 ring-slate-200 transition hover:shadow-md"
    >
      <div className="flex items-start gap-3">
        <AccountAvatar
          username={username}
          displayName={connected || status === 'reconnect_needed' ? account.displayName : null}
          avatarUrl={connected || status === 'reconnect_needed' ? account.avatarUrl : null}
        />
        <div className="min-w-0 flex-1">
          <h2
            id={headingId}
            title={`@${username}`}
            className="truncate text-base font-semibold text-slate-900"
          >
            @{username}
          </h2>
          {account.displayName && status !== 'not_connected' && (
            <p className="truncate text-sm text-slate-500">{account.displayName}</p>
          )}
          <div className="mt-1.5">
            <StatusChip status={status} />
          </div>
        </div>
        <button
          type="button"
          onClick={() => onDelete(account)}
          aria-label={t('accounts.card.delete', { username })}
          title={t('accounts.card.delete', { username })}
          className="-mr-1.5 -mt-1 rounded-lg p-2 text-slate-500 transition hover:bg-red-50 hover:text-red-600"
        >
          <TrashIcon className="h-5 w-5 shrink-0" />
        </button>
      </div>

      {status !== 'not_connected' && <PostStats account={account} />}

      <CardNotice account={account} />

      <div className="mt-auto flex flex-wrap gap-2 pt-5">
        <CardActions account={account} onOpenSettings={onOpenSettings} />
      </div>
    </article>
  );
}

function PostStats({ account }: { account: Account }) {
  const { t } = useTranslation();
  const { language } = useLanguage();
  const { timeZone } = useTimeZone();
  const value = <strong className="font-semibold text-slate-900" />;
  return (
    <div className="mt-4 space-y-1 rounded-xl bg-slate-50 px-3.5 py-3 text-sm text-slate-600">
      <p>
        <Trans
          i18nKey="accounts.card.scheduled"
          values={{ n: account.scheduledCount }}
          components={{ value }}
        />
      </p>
      <p>
        <Trans
          i18nKey="accounts.card.nextPost"
          values={{
            date: account.nextPostAt
              ? formatDateTime(account.nextPostAt, language, timeZone)
              : t('accounts.card.none'),
          }}
          components={{ value }}
        />
      </p>
    </div>
  );
}

function CardNotice({ account }: { account: Account }) {
  const { t } = useTranslation();
  if (account.status === 'not_connected') {
    return <p className="mt-4 text-sm text-slate-500">{t('accounts.card.notConnectedHint')}</p>;
  }
  const warning =
    account.status === 'reconnect_needed'
      ? t('accounts.card.expired')
      : account.canPublish
        ? null
        : t('accounts.card.cannotPublish');
  if (!warning) return null;
  return (
    <p className="mt-3 flex gap-2 rounded-xl bg-amber-50 px-3.5 py-3 text-sm text-amber-900 ring-1 ring-inset ring-amber-200">
      <AlertIcon className="mt-0.5 h-4 w-4 shrink-0 text-amber-600" />
      <span>{warning}</span>
    </p>
  );
}

function CardActions({
  account,
  onOpenSettings,
}: {
  account: Account;
  onOpenSettings: (account: Account) => void;
}) {
  const { t } = useTranslation();
  const { id, username, status } = account;
  const settingsButton = (
    <Button
      variant="secondary"
      onClick={() => onOpenSettings(account)}
      aria-label={t('accounts.card.settingsLabel', { username })}
      className="flex-1"
    >
      <SettingsIcon className="h-4 w-4 shrink-0" />
      {t('accounts.card.settings')}
    </Button>
  );

  if (status === 'not_connected') {
    return (
      <ConnectButton accountId={id} label={t('accounts.card.connectLabel', { username })}>
        <LinkIcon className="h-4 w-4 shrink-0" />
        {t('accounts.card.connect')}
      </ConnectButton>
    );
  }
  if (status === 'reconnect_needed' || !account.canPublish) {
    return (
      <>
        <ConnectButton accountId={id} label={t('accounts.card.reconnectLabel', { username })}>
          <RefreshIcon className="h-4 w-4 shrink-0" />
          {t('accounts.card.reconnect')}
        </ConnectButton>
        {settingsButton}
      </>
    );
  }
  return (
    <>
      <Link
        to={`/scheduler?account=${encodeURIComponent(id)}`}
        aria-label={t('accounts.card.scheduleLabel', { username })}
        className={buttonClassName('primary', 'flex-1')}
      >
        <CalendarIcon className="h-4 w-4 shrink-0" />
        {t('accounts.card.schedule')}
      </Link>
      {settingsButton}
    </>
  );
}

/** Asks the server for TikTok's consent page and sends the browser there. */
function ConnectButton({
  accountId,
  label,
  children,
}: {
  accountId: string;
  label: string;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  const connect = useConnectAccount();
  const [redirecting, setRedirecting] = useState(false);
  const errorId = useId();

  // Coming back from TikTok's page may restore this page from the back-forward cache, mid-redirect.
  useEffect(() => {
    const onPageShow = (event: PageTransitionEvent) => {
      if (event.persisted) setRedirecting(false);
    };
    window.addEventListener('pageshow', onPageShow);
    return () => window.removeEventListener('pageshow', onPageShow);
  }, []);

  const busy = connect.isPending || redirecting;
  function start() {
    connect.mutate(accountId, {
      onSuccess: (authorizeUrl) => {
        setRedirecting(true);
        window.location.assign(authorizeUrl);
      },
    });
  }

  return (
    <div className="flex min-w-0 flex-1 flex-col gap-2">
      <Button
        onClick={start}
        disabled={busy}
        aria-label={busy ? t('accounts.card.redirecting') : label}
        aria-describedby={connect.error ? errorId : undefined}
        className="w-full bg-gradient-to-r from-brand-600 to-brand-500 hover:from-brand-700 hover:to-brand-600"
      >
        {busy ? <Spinner className="h-4 w-4" /> : children}
        {busy && t('accounts.card.redirecting')}
      </Button>
      {connect.error && (
        <p id={errorId} role="alert" className="text-sm text-red-700">
          {t(connect.error instanceof ApiError ? connect.error.translationKey : 'errors.internal')}
        </p>
      )}
    </div>
  );
}
