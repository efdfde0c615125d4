import { postingBanCode, type Account, type CreatorInfo } from '@cadence/shared/schemas/account';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { accountChoices, AccountOption } from '../../../components/ui/account-option.tsx';
import { AlertIcon } from '../../../components/ui/icons.tsx';
import { Picker } from '../../../components/ui/picker.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { failReasonKey } from '@cadence/shared/fail-reason-keys';
import { useErrorText } from '../../../lib/error-text.ts';
import { FieldError, labelClass } from '../components/form-controls.tsx';

/** The account picker, then who TikTok says will post (creator_info), or why they cannot. */
export function AccountField({
  selectId,
  accounts,
  accountsLoading,
  value,
  onChange,
  error,
  creator,
  today,
}: {
  selectId: string;
  accounts: readonly Account[];
  accountsLoading: boolean;
  value: string;
  onChange: (accountId: string) => void;
  error: string | undefined;
  creator: { data: CreatorInfo | undefined; isLoading: boolean; error: Error | null };
  /** Each account's posts today against TikTok's daily cap (Cadence's estimate), once known. */
  today?: { counts: ReadonlyMap<string, number>; cap: number } | undefined;
}) {
  const { t } = useTranslation();
  const todayText = (accountId: string) =>
    today && t('planner.todayCount', { n: today.counts.get(accountId) ?? 0, cap: today.cap });
  const errorId = useId();
  const errorText = useErrorText('scheduler.form.account.creatorFailed');
  // '' first, as the native select had it: 'Choisir un compte…' can be chosen again.
  const options = accountChoices(accounts, '');

  return (
    <div>
      <Picker
        id={selectId}
        label={t('scheduler.form.account.label')}
        labelClassName={labelClass}
        options={options}
        value={value}
        onChange={onChange}
        disabled={accountsLoading}
        invalid={error !== undefined}
        describedBy={error ? errorId : undefined}
        renderOption={({ account }) =>
          account ? (
            <AccountOption account={account} detail={todayText(account.id)} />
          ) : (
            <span className="text-slate-500">{t('scheduler.form.account.placeholder')}</span>
          )
        }
      />
      <FieldError id={errorId}>{error}</FieldError>

      {!accountsLoading && accounts.length === 0 && (
        <p className="mt-2 text-sm text-slate-600">
          {t('scheduler.form.account.none')}{' '}
          <Link to="/tiktok" className="font-semibold text-brand-600 hover:text-brand-700">
            {t('scheduler.form.account.connect')}
          </Link>
        </p>
      )}

      {value !== '' && (
        <div className="mt-3" aria-live="polite">
          {creator.isLoading ? (
            <p className="flex items-center gap-2 text-sm text-slate-500">
              <Spinner className="h-4 w-4" />
              {t('scheduler.form.account.loadingCreator')}
            </p>
          ) : creator.error ? (
            <p
              className="flex gap-2 rounded-xl bg-red-50 px-3.5 py-3 text-sm text-red-800 ring-1 ring-inset ring-red-200"
              role="alert"
            >
              <AlertIcon className="mt-0.5 h-4 w-4 shrink-0" />
              {errorText(creator.error)}
            </p>
          ) : creator.data ? (
            <CreatorCard creator={creator.data} />
          ) : null}
        </div>
      )}
    </div>
  );
}

function CreatorCard({ creator }: { creator: CreatorInfo }) {
  const { t } = useTranslation();
  return (
    <div className="space-y-2">
      <div className="flex items-center gap-3 rounded-xl bg-slate-50 px-3.5 py-3 ring-1 ring-inset ring-slate-200">
        {creator.avatarUrl ? (
          <img
            src={creator.avatarUrl}
            alt=""
            className="h-10 w-10 rounded-full object-cover ring-2 ring-white"
          />
        ) : (
          <span
            className="flex h-10 w-10 items-center justify-center rounded-full bg-gradient-to-br from-brand-500 to-accent-500 font-semibold text-white"
            aria-hidden="true"
          >
            {creator.nickname.slice(0, 1).toUpperCase()}
          </span>
        )}
        <div className="min-w-0">
          <p className="text-xs text-slate-500">{t('scheduler.form.account.postingAs')}</p>
          <p
            className="truncate text-sm font-semibold text-slate-900"
            data-testid="creator-nickname"
          >
            {creator.nickname}{' '}
            <span className="font-normal text-slate-500">@{creator.username}</span>
          </p>
        </div>
      </div>
      {creator.cannotPostReason !== null && (
        <p
          className="flex gap-2 rounded-xl bg-amber-50 px-3.5 py-3 text-sm text-amber-900 ring-1 ring-inset ring-amber-200"
          role="alert"
        >
          <AlertIcon className="mt-0.5 h-4 w-4 shrink-0 text-amber-600" />
          <span>
            <strong className="font-semibold">{t('scheduler.form.account.cannotPost')}</strong>{' '}
            {t(failReasonKey(creator.cannotPostReason))}
            {/* A suspension lifts on no particular day: nothing can be scheduled meanwhile. */}
            {creator.cannotPostReason !== postingBanCode &&
              ` ${t('scheduler.form.account.laterStillPossible')}`}
          </span>
        </p>
      )}
    </div>
  );
}
