import type { PostStatus } from '@cadence/shared/schemas/schedule';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { accountChoices, AccountOption } from '../../../components/ui/account-option.tsx';
import { Picker } from '../../../components/ui/picker.tsx';
import { useAccounts } from '../../../lib/accounts.ts';
import { listStatuses, type PostFilters, type PostList } from '../api/get-post-pages.ts';
import { filterParams } from './post-lists.ts';
import { statusLooks } from './status-badge.tsx';

const filterLabelClass = 'mb-1 block text-xs font-medium text-slate-500';
const selectClass =
  'block min-h-8 w-full min-w-0 rounded-lg border-0 bg-white py-1.5 pl-2 pr-6 text-sm sm:pl-3 sm:pr-8 text-slate-900 shadow-sm ring-1 ring-inset ring-slate-300 focus:ring-2 focus:ring-inset focus:ring-brand-500';

/**
 * Account and status filters, kept in the URL's search parameters (a link shows the same list).
 * The account is a `Picker`: a username can be 64 characters, which a native select cuts.
 */
export function PostFiltersBar({ list, filters }: { list: PostList; filters: PostFilters }) {
  const { t } = useTranslation();
  const accountList = useAccounts().data ?? [];
  const [, setSearch] = useSearchParams();
  const accountId = useId();
  const statusId = useId();

  const set = (name: string, value: string) =>
    setSearch((current) => {
      const next = new URLSearchParams(current);
      if (value) next.set(name, value);
      else next.delete(name);
      return next;
    });

  return (
    <div
      role="group"
      aria-label={t('scheduler.filters.label')}
      className="grid grid-cols-1 gap-2 min-[360px]:grid-cols-2 sm:flex sm:items-end sm:gap-3"
    >
      <div className="min-w-0 sm:w-64">
        <Picker
          id={accountId}
          size="sm"
          label={t('scheduler.filters.account')}
          labelClassName={filterLabelClass}
          options={accountChoices(accountList, t('scheduler.filters.allAccounts'))}
          value={filters.accountId ?? ''}
          onChange={(chosen) => set(filterParams.accountId, chosen)}
          renderOption={({ account }) =>
            account ? <AccountOption account={account} /> : t('scheduler.filters.allAccounts')
          }
        />
      </div>
      <div className="min-w-0 sm:w-44">
        <label htmlFor={statusId} className={filterLabelClass}>
          {t('scheduler.filters.status')}
        </label>
        <select
          id={statusId}
          value={filters.status ?? ''}
          onChange={(event) => set(filterParams.status, event.target.value)}
          className={selectClass}
        >
          <option value="">{t('scheduler.filters.allStatuses')}</option>
          {listStatuses[list].map((status: PostStatus) => (
            <option key={status} value={status}>
              {t(statusLooks[status].labelKey)}
            </option>
          ))}
        </select>
      </div>
    </div>
  );
}
