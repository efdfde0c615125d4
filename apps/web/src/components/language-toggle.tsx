import type { Language } from '@cadence/shared/errors';
import { useTranslation } from 'react-i18next';
import { useUpdateLanguage } from '../lib/me.ts';

import { applyLanguage, languagePickerIntent, useLanguage } from '../lib/i18n.ts';

export const languageChosenWhileSignedOutKey = 'cadence.language.chosen-signed-out';

/**
 * FR | EN. Switches instantly; remembered on this device and, `signedIn` (the app's header), on
 * the account. The signed-out screens' toggle asks no session: the sign-in screen's first load
 * makes no request that fails (a 401 is a console error).
 */
export function LanguageToggle({
  tone = 'light',
  signedIn = false,
}: {
  tone?: 'light' | 'dark';
  signedIn?: boolean;
}) {
  const { t } = useTranslation();
  const updateLanguage = useUpdateLanguage();
  const { language: current } = useLanguage();

  function choose(language: Language) {
    if (language === current) return;
    void applyLanguage(language);
    if (signedIn) {
      updateLanguage.mutate(language);
    } else {
      sessionStorage.setItem(languageChosenWhileSignedOutKey, '1');
    }
  }

  const idle =
    tone === 'light' ? 'text-slate-500 hover:text-slate-900' : 'text-slate-300 hover:text-white';
  const active = tone === 'light' ? 'bg-white text-slate-900 shadow-sm' : 'bg-white/15 text-white';
  return (
    <div
      role="group"
      aria-label={t('nav.language')}
      {...languagePickerIntent}
      className={`inline-flex rounded-lg p-0.5 text-xs font-semibold ${tone === 'light' ? 'bg-slate-100' : 'bg-white/5'}`}
    >
      {(['fr', 'en'] as const).map((language) => (
        <button
          key={language}
          type="button"
          lang={language}
          aria-pressed={current === language}
          onClick={() => choose(language)}
          className={`rounded-md px-2.5 py-1.5 uppercase transition ${current === language ? active : idle}`}
        >
          {language}
        </button>
      ))}
    </div>
  );
}
