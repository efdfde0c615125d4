import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Alert } from '../../components/ui/alert.tsx';

/** A message above the lists; `link` says where to look next. */
export type Notice = {
  tone: 'success' | 'error';
  text: string;
  link?: { to: string; label: string };
};

/** The scheduler's message above its tabs (a post scheduled, an action done or refused), and its ✕. */
export function PageNotice({
  notice,
  onDismiss,
}: {
  notice: Notice | null;
  onDismiss: () => void;
}) {
  const { t } = useTranslation();
  return (
    <div aria-live="polite" className="mb-6 empty:hidden">
      {notice && (
        <Alert tone={notice.tone}>
          <div className="flex items-start justify-between gap-3">
            <p>
              {notice.text}
              {notice.link && (
                <>
                  {' '}
                  <Link to={notice.link.to} className="font-semibold underline underline-offset-2">
                    {notice.link.label}
                  </Link>
                </>
              )}
            </p>
            <button
              type="button"
              onClick={onDismiss}
              aria-label={t('scheduler.notices.dismiss')}
              className="-my-1 -mr-2 rounded p-1 opacity-60 hover:opacity-100"
            >
              <svg
                className="h-4 w-4"
                viewBox="0 0 24 24"
                fill="none"
                stroke="currentColor"
                strokeWidth="2"
                aria-hidden="true"
              >
                <path d="M6 6l12 12M18 6 6 18" strokeLinecap="round" />
              </svg>
            </button>
          </div>
        </Alert>
      )}
    </div>
  );
}
