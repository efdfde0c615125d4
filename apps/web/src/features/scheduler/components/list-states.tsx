import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';

// What a view below the scheduler's tabs (queue, history, drafts, calendar) shows before its
// list, instead of it, or when it has nothing: one look for all of them.

/** The view's data on its way; `label` is what a screen reader hears. */
export function ViewLoading({ label }: { label: string }) {
  return (
    <div className="flex justify-center py-16 text-brand-600" role="status">
      <Spinner className="h-8 w-8" />
      <span className="sr-only">{label}</span>
    </div>
  );
}

/** The view's data could not be read: why, and 'Réessayer'. */
export function ViewLoadFailed({ message, onRetry }: { message: string; onRetry: () => void }) {
  const { t } = useTranslation();
  return (
    <Alert tone="error">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
        <p>{message}</p>
        <Button variant="secondary" onClick={onRetry}>
          {t('scheduler.errors.retryLoad')}
        </Button>
      </div>
    </Alert>
  );
}

/** A list with nothing in it yet: what would be there, and (`children`) the way to a first one. */
export function EmptyList({
  title,
  description,
  children,
}: {
  title: string;
  description: string;
  children?: ReactNode;
}) {
  return (
    <div className="rounded-2xl border-2 border-dashed border-slate-200 bg-white/60 px-6 py-14 text-center">
      <h3 className="text-lg font-semibold text-slate-900">{title}</h3>
      <p className="mx-auto mt-2 max-w-md text-sm text-slate-500">{description}</p>
      {children}
    </div>
  );
}
