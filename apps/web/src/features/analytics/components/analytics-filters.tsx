import {
  analyticsPeriods,
  type AnalyticsAccount,
  type AnalyticsPeriod,
} from '@cadence/shared/schemas/analytics';
import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { accountChoices, AccountOption } from '../../../components/ui/account-option.tsx';
import { buttonClassName } from '../../../components/ui/button.tsx';
import { DownloadIcon } from '../../../components/ui/icons.tsx';
import { Picker } from '../../../components/ui/picker.tsx';

// The scheduler's field look (a feature never imports another: the class is repeated here).
const fieldClass =
  'block rounded-lg border-0 bg-white px-3 py-2 text-sm text-slate-900 shadow-sm ring-1 ring-inset ring-slate-300 focus:ring-2 focus:ring-inset focus:ring-brand-500';

export interface FilterValue {
  accountId: string | null;
  period: AnalyticsPeriod;
  from?: string | undefined;
  to?: string | undefined;
}

/** Account, period (7/28/90 days or a custom range) and the CSV export links. */
export function AnalyticsFilters({
  accounts,
  value,
  onChange,
  exportHref,
}: {
  accounts: AnalyticsAccount[];
  value: FilterValue;
  onChange: (value: FilterValue) => void;
  exportHref: (table: 'daily' | 'videos') => string;
}) {
  const { t } = useTranslation();
  const id = useId();
  const [from, setFrom] = useState(value.from ?? '');
  const [to, setTo] = useState(value.to ?? '');

  return (
    <div className="mb-6 flex flex-col gap-4 rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200">
      <div className="flex flex-col gap-4 lg:flex-row lg:items-end lg:justify-between">
        <div className="min-w-0 sm:w-72">
          <Picker
            id={`${id}-account`}
            label={t('analytics.account')}
            labelClassName="mb-1 block text-sm font-medium text-slate-700"
            size="sm"
            options={accountChoices(accounts, t('analytics.allAccounts'))}
            value={value.accountId ?? ''}
            onChange={(chosen) => onChange({ ...value, accountId: chosen === '' ? null : chosen })}
            renderOption={({ account }) => {
              if (!account) return t('analytics.allAccounts');
              const name = `@${account.username}`;
              return (
                <AccountOption
                  account={account}
                  name={account.connected ? name : t('analytics.disconnected', { username: name })}
                />
              );
            }}
          />
        </div>
        <PeriodChoice
          name={`${id}-period`}
          value={value.period}
          onChange={(period) =>
            period === 'custom'
              ? onChange({ ...value, period, from: from || undefined, to: to || undefined })
              : onChange({ accountId: value.accountId, period })
          }
        />
      </div>
      {value.period === 'custom' && (
        <CustomRangeForm
          id={id}
          from={from}
          to={to}
          onFromChange={setFrom}
          onToChange={setTo}
          onApply={() => {
            if (from && to) onChange({ ...value, period: 'custom', from, to });
          }}
        />
      )}
      <div className="flex flex-wrap gap-2">
        {/* Two files of equal standing: the figures day by day, and one line per video. */}
        <a href={exportHref('daily')} download className={buttonClassName('secondary', 'text-xs')}>
          <DownloadIcon className="h-3.5 w-3.5" />
          {t('analytics.exportCsv')}
        </a>
        <a href={exportHref('videos')} download className={buttonClassName('secondary', 'text-xs')}>
          <DownloadIcon className="h-3.5 w-3.5" />
          {t('analytics.exportVideosCsv')}
        </a>
      </div>
    </div>
  );
}

/** 7, 28 or 90 days, or a custom range: radio buttons drawn as a segmented control. */
function PeriodChoice({
  name,
  value,
  onChange,
}: {
  name: string;
  value: AnalyticsPeriod;
  onChange: (period: AnalyticsPeriod) => void;
}) {
  const { t } = useTranslation();
  return (
    <fieldset className="min-w-0">
      <legend className="mb-1 text-sm font-medium text-slate-700">
        {t('analytics.period.label')}
      </legend>
      <div className="grid grid-cols-2 gap-1 rounded-lg bg-slate-100 p-1 sm:grid-cols-4">
        {analyticsPeriods.map((period) => (
          <label
            key={period}
            className={`cursor-pointer rounded-md px-2 py-1.5 text-center text-sm font-medium focus-within:ring-2 focus-within:ring-sky-500 sm:px-3 ${value === period ? 'bg-white text-slate-900 shadow-sm' : 'text-slate-600 hover:text-slate-900'}`}
          >
            <input
              type="radio"
              name={name}
              value={period}
              checked={value === period}
              className="sr-only"
              onChange={() => onChange(period)}
            />
            {t(`analytics.period.${period}`)}
          </label>
        ))}
      </div>
    </fieldset>
  );
}

/** The custom period's two dates, applied together when the form is submitted. */
function CustomRangeForm({
  id,
  from,
  to,
  onFromChange,
  onToChange,
  onApply,
}: {
  id: string;
  from: string;
  to: string;
  onFromChange: (from: string) => void;
  onToChange: (to: string) => void;
  onApply: () => void;
}) {
  const { t } = useTranslation();
  function submit(event: FormEvent) {
    event.preventDefault();
    onApply();
  }
  return (
    <form className="flex flex-wrap items-end gap-3" onSubmit={submit}>
      <div className="flex flex-col gap-1">
        <label htmlFor={`${id}-from`} className="text-sm font-medium text-slate-700">
          {t('analytics.period.from')}
        </label>
        <input
          id={`${id}-from`}
          type="date"
          required
          value={from}
          max={to || undefined}
          onChange={(event) => onFromChange(event.target.value)}
          className={fieldClass}
        />
      </div>
      <div className="flex flex-col gap-1">
        <label htmlFor={`${id}-to`} className="text-sm font-medium text-slate-700">
          {t('analytics.period.to')}
        </label>
        <input
          id={`${id}-to`}
          type="date"
          required
          value={to}
          min={from || undefined}
          onChange={(event) => onToChange(event.target.value)}
          className={fieldClass}
        />
      </div>
      <button type="submit" className={buttonClassName('secondary')}>
        {t('analytics.period.apply')}
      </button>
    </form>
  );
}
