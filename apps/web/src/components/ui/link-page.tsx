import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { BrandMark } from './brand.tsx';

/**
 * The page an email's link opens (unsubscribe, address confirmations), signed in or out: the
 * brand, a title and the page's few lines in one centred card, without the app's header.
 */
export function LinkPage({ title, children }: { title: string; children: ReactNode }) {
  const { t } = useTranslation();
  return (
    <main id="main" className="flex min-h-screen items-start justify-center bg-slate-50 px-4 py-16">
      <div className="w-full max-w-md rounded-2xl bg-white p-6 shadow-sm ring-1 ring-slate-200">
        <Link to="/" className="mb-6 flex items-center gap-2.5 font-bold text-slate-900">
          <BrandMark />
          <span className="text-lg">{t('app.name')}</span>
        </Link>
        <h1 className="text-xl font-bold text-slate-900">{title}</h1>
        <div className="mt-4 space-y-4">{children}</div>
      </div>
    </main>
  );
}
