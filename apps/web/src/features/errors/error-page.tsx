import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useRouteError } from 'react-router';
import { BrandMark } from '../../components/ui/brand.tsx';
import { Button, buttonClassName } from '../../components/ui/button.tsx';
import { documentTitle } from '../../lib/document-title.ts';

/** Replaces React Router's 'Unexpected Application Error!' page: translated, with a way back. */
export function ErrorPage() {
  const { t } = useTranslation();
  const error = useRouteError();
  useEffect(() => {
    console.error(error);
  }, [error]);
  const title = documentTitle([{ titleKey: 'errorBoundary.title' }], (key) => t(key));
  useEffect(() => {
    document.title = title;
  }, [title]);
  return (
    <main className="flex min-h-screen items-center justify-center bg-slate-50 px-4" role="alert">
      <div className="max-w-md text-center">
        <BrandMark className="mx-auto h-12 w-12" />
        <h1 className="mt-6 text-2xl font-bold text-slate-900">{t('errorBoundary.title')}</h1>
        <p className="mt-3 text-slate-600">{t('errorBoundary.description')}</p>
        <div className="mt-8 flex flex-col justify-center gap-3 sm:flex-row">
          <Button variant="secondary" onClick={() => window.location.reload()}>
            {t('errorBoundary.reload')}
          </Button>
          <a href="/" className={buttonClassName('primary')}>
            {t('errorBoundary.backHome')}
          </a>
        </div>
      </div>
    </main>
  );
}
