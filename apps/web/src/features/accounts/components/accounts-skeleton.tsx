import { useTranslation } from 'react-i18next';

/** Placeholder cards with the real cards' shape, so the page does not jump when they arrive. */
export function AccountsSkeleton() {
  const { t } = useTranslation();
  return (
    <div role="status" aria-live="polite" className="grid gap-4 sm:grid-cols-2 xl:grid-cols-3">
      <span className="sr-only">{t('accounts.list.loading')}</span>
      {[0, 1, 2].map((index) => (
        <div
          key={index}
          aria-hidden="true"
          className={`animate-pulse rounded-2xl bg-white p-5 shadow-sm ring-1 ring-slate-200 ${index === 2 ? 'hidden xl:block' : index === 1 ? 'hidden sm:block' : ''}`}
        >
          <div className="flex items-center gap-3">
            <div className="h-12 w-12 rounded-full bg-slate-200" />
            <div className="flex-1 space-y-2">
              <div className="h-4 w-32 rounded bg-slate-200" />
              <div className="h-3 w-20 rounded-full bg-slate-100" />
            </div>
          </div>
          <div className="mt-4 h-16 rounded-xl bg-slate-100" />
          <div className="mt-5 flex gap-2">
            <div className="h-10 flex-1 rounded-lg bg-slate-200" />
            <div className="h-10 flex-1 rounded-lg bg-slate-100" />
          </div>
        </div>
      ))}
    </div>
  );
}
