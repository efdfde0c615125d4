import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { LanguageToggle } from '../../../components/language-toggle.tsx';
import { BrandMark } from '../../../components/ui/brand.tsx';

/** The signed-out screens' frame: dark backdrop, language toggle, brand, and a white card. */
export function AuthShell({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  return (
    <div className="relative flex min-h-screen flex-col bg-slate-950">
      <div className="pointer-events-none absolute inset-0 overflow-hidden" aria-hidden="true">
        <div className="absolute -left-32 -top-32 h-96 w-96 rounded-full bg-brand-500/30 blur-3xl" />
        <div className="absolute -bottom-32 -right-24 h-96 w-96 rounded-full bg-accent-500/25 blur-3xl" />
      </div>
      <div className="relative flex justify-end p-4">
        <LanguageToggle tone="dark" />
      </div>
      <main className="relative flex flex-1 items-center justify-center px-4 pb-16">
        <div className="w-full max-w-md">
          <div className="mb-8 flex flex-col items-center text-center text-white">
            <BrandMark className="h-14 w-14" />
            <p className="mt-4 text-3xl font-bold tracking-tight">{t('app.name')}</p>
            <p className="mt-2 text-slate-300">{t('app.tagline')}</p>
          </div>
          <div className="rounded-2xl bg-white p-6 shadow-2xl shadow-black/30 sm:p-8">
            {children}
          </div>
        </div>
      </main>
    </div>
  );
}
