import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { buttonClassName } from './ui/button.tsx';
import { useMe } from '../lib/me.ts';
import { usePublicConfig } from '../lib/public-config.ts';

/** Pro comes from the server's user record (GET /api/me), never from navigation state. */
export function ProGate({ children }: { children: ReactNode }) {
  const me = useMe();
  if (me.data?.isPro) return <>{children}</>;
  return <ProNotice />;
}

export function ProNotice() {
  const { t } = useTranslation();
  return (
    <div className="mx-auto max-w-xl rounded-2xl bg-white p-8 text-center shadow-sm ring-1 ring-slate-200 sm:p-12">
      <div className="mx-auto flex h-14 w-14 items-center justify-center rounded-2xl bg-gradient-to-br from-brand-500 to-accent-500 text-white">
        <svg
          className="h-7 w-7"
          viewBox="0 0 24 24"
          fill="none"
          stroke="currentColor"
          strokeWidth="2"
          aria-hidden="true"
        >
          <path
            d="M12 3l2.6 5.3 5.9.9-4.3 4.1 1 5.8L12 16.4 6.8 19.1l1-5.8L3.5 9.2l5.9-.9L12 3z"
            strokeLinejoin="round"
          />
        </svg>
      </div>
      <h1 className="mt-6 text-2xl font-bold text-slate-900">{t('pro.title')}</h1>
      <p className="mt-3 text-lg text-slate-700">{t('pro.description')}</p>
      <p className="mt-3 text-sm text-slate-500">{t('pro.hint')}</p>
      <div className="mt-8 flex flex-wrap justify-center gap-3">
        <ProContactLink className={buttonClassName('primary')} />
        <Link to="/tiktok" className={buttonClassName('secondary')}>
          {t('pro.back')}
        </Link>
      </div>
    </div>
  );
}

/**
 * How to go Pro: an e-mail to the operator's CONTACT_EMAIL, its subject written for them (there
 * is no payment in Cadence). The gate said 'contact us' with no address: a dead end.
 */
export function ProContactLink({ className }: { className: string }) {
  const { t } = useTranslation();
  const config = usePublicConfig();
  if (!config.data) return null;
  const subject = encodeURIComponent(t('pro.mailSubject'));
  return (
    <a href={`mailto:${config.data.contactEmail}?subject=${subject}`} className={className}>
      {t('pro.contact')}
    </a>
  );
}
