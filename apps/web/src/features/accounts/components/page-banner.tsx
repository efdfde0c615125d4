import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert } from '../../../components/ui/alert.tsx';
import { XIcon } from '../../../components/ui/icons.tsx';

/** A dismissible message at the top of the page (callback outcome, or what the last action did). */
export function PageBanner({
  tone,
  children,
  onDismiss,
  arrival = false,
}: {
  tone: 'error' | 'success';
  children: ReactNode;
  onDismiss: () => void;
  /** The callback's outcome, what the page opens with: focus goes to it (Alert's `arrival`). */
  arrival?: boolean;
}) {
  const { t } = useTranslation();
  return (
    <Alert tone={tone} arrival={arrival}>
      <div className="flex items-start gap-3">
        <p className="min-w-0 flex-1 font-medium break-words" data-testid="accounts-banner">
          {children}
        </p>
        <button
          type="button"
          onClick={onDismiss}
          aria-label={t('accounts.callback.dismiss')}
          className={`-my-1 -mr-2 rounded-md p-1 transition ${tone === 'error' ? 'text-red-700 hover:bg-red-100' : 'text-emerald-700 hover:bg-emerald-100'}`}
        >
          <XIcon className="h-4 w-4 shrink-0" />
        </button>
      </div>
    </Alert>
  );
}
