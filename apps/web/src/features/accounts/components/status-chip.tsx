import type { AccountStatus } from '@cadence/shared/schemas/account';
import { useTranslation } from 'react-i18next';

const tones: Record<AccountStatus, { chip: string; dot: string }> = {
  connected: { chip: 'bg-emerald-50 text-emerald-700 ring-emerald-600/20', dot: 'bg-emerald-500' },
  not_connected: { chip: 'bg-slate-100 text-slate-600 ring-slate-500/20', dot: 'bg-slate-400' },
  reconnect_needed: { chip: 'bg-amber-50 text-amber-800 ring-amber-600/25', dot: 'bg-amber-500' },
};

const labelKeys = {
  connected: 'accounts.status.connected',
  not_connected: 'accounts.status.not_connected',
  reconnect_needed: 'accounts.status.reconnect_needed',
} as const satisfies Record<AccountStatus, string>;

export function StatusChip({ status }: { status: AccountStatus }) {
  const { t } = useTranslation();
  const tone = tones[status];
  return (
    <span
      className={`inline-flex items-center gap-1.5 rounded-full px-2.5 py-0.5 text-xs font-medium ring-1 ring-inset ${tone.chip}`}
      data-status={status}
    >
      <span className={`h-1.5 w-1.5 rounded-full ${tone.dot}`} aria-hidden="true" />
      {t(labelKeys[status])}
    </span>
  );
}
