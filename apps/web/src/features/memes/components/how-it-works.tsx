import { useTranslation } from 'react-i18next';

const steps = [
  'memes.howItWorks.step1',
  'memes.howItWorks.step2',
  'memes.howItWorks.step3',
  'memes.howItWorks.step4',
] as const;

/** The spec's four steps: paste, analyse, compile, download. */
export function HowItWorks() {
  const { t } = useTranslation();
  return (
    <section
      aria-labelledby="memes-how-title"
      className="rounded-2xl bg-white p-5 shadow-sm ring-1 ring-slate-200 sm:p-6"
    >
      <h2 id="memes-how-title" className="text-base font-semibold text-slate-900">
        {t('memes.howItWorks.title')}
      </h2>
      <ol className="mt-4 space-y-3">
        {steps.map((key, index) => (
          <li key={key} className="flex gap-3 text-sm text-slate-600">
            <span
              className="flex h-6 w-6 shrink-0 items-center justify-center rounded-full bg-gradient-to-br from-brand-500 to-accent-500 text-xs font-bold text-white"
              aria-hidden="true"
            >
              {index + 1}
            </span>
            <span className="pt-0.5">{t(key)}</span>
          </li>
        ))}
      </ol>
    </section>
  );
}
