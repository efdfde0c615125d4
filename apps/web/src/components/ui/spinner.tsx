import { useTranslation } from 'react-i18next';

export function Spinner({ className = 'h-5 w-5' }: { className?: string }) {
  return (
    <svg className={`animate-spin ${className}`} viewBox="0 0 24 24" fill="none" aria-hidden="true">
      <circle className="opacity-20" cx="12" cy="12" r="10" stroke="currentColor" strokeWidth="4" />
      <path
        className="opacity-80"
        d="M22 12a10 10 0 0 0-10-10"
        stroke="currentColor"
        strokeWidth="4"
        strokeLinecap="round"
      />
    </svg>
  );
}

/** Shown while the session is being resolved, so no screen flashes before we know who is here. */
export function FullScreenSpinner() {
  const { t } = useTranslation();
  return (
    <div
      className="flex min-h-screen items-center justify-center text-brand-600"
      role="status"
      aria-live="polite"
    >
      <Spinner className="h-10 w-10" />
      <span className="sr-only">{t('app.loading')}</span>
    </div>
  );
}
