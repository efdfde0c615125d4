import { useEffect, type ReactNode } from 'react';
import { Link } from 'react-router';
import { BrandMark } from '../../../components/ui/brand.tsx';

/** Privacy and terms stand alone (no app header or footer), in English, as in the original. */
export function LegalLayout({
  title,
  updated,
  children,
}: {
  title: string;
  updated: string;
  children: ReactNode;
}) {
  useDocumentLanguage('en');
  return (
    <div className="min-h-screen bg-white">
      <main className="mx-auto max-w-3xl px-5 py-12 sm:py-16">
        <nav aria-label="Cadence" className="flex flex-wrap items-center justify-between gap-4">
          <Link to="/" className="inline-flex items-center gap-2 font-bold text-slate-900">
            <BrandMark className="h-7 w-7" /> Cadence
          </Link>
          <Link
            to="/"
            className="rounded-lg px-3 py-2 text-sm font-medium text-brand-700 hover:bg-brand-50"
          >
            ← Back to Cadence
          </Link>
        </nav>
        <h1 className="mt-8 text-3xl font-bold tracking-tight text-slate-900 sm:text-4xl">
          {title}
        </h1>
        <p className="mt-2 text-sm text-slate-500">Last updated: {updated}</p>
        <div className="mt-10 space-y-10 text-[15px] leading-7 text-slate-700 [&_h2]:mb-3 [&_h2]:text-xl [&_h2]:font-semibold [&_h2]:text-slate-900 [&_li]:ml-5 [&_li]:list-disc [&_ul]:mt-2 [&_ul]:space-y-1">
          {children}
        </div>
      </main>
    </div>
  );
}

/**
 * The page's text is in one language whatever the app's: the document says so while it is shown
 * (screen readers and translation tools read `<html lang>`), and gets the app's back after.
 */
function useDocumentLanguage(language: string) {
  useEffect(() => {
    const root = document.documentElement;
    const previous = root.lang;
    root.lang = language;
    return () => {
      root.lang = previous;
    };
  }, [language]);
}

export function CompanyDetails({
  companyName,
  companyNumber,
  dataProtectionNumber,
}: {
  companyName: string;
  companyNumber: string;
  dataProtectionNumber: string;
}) {
  return (
    <p>
      Cadence is operated by <strong>{companyName}</strong>, a limited company registered in England
      and Wales under company number <strong>{companyNumber}</strong>, registered with the
      Information Commissioner&apos;s Office under data-protection registration number{' '}
      <strong>{dataProtectionNumber}</strong>.
    </p>
  );
}
