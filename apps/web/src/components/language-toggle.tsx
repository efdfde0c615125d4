import type { Language } from '@cadence/shared/errors';
import { useTranslation } from 'react-i18next';
import { useMe, useUpdateLanguage } from '../lib/me.ts';

import { applyLanguage, isLanguage } from '../lib/i18n.ts';

export const languageChosenWhileSignedOutKey = 'cadence.language.chosen-signed-out';

/** FR | EN. Switches instantly; remembered on this device and, when signed in, on the account. */
export function LanguageToggle({ tone = 'light' }: { tone?: 'light' | 'dark' }) {
  const { t, i18n } = useTranslation();
  const me = useMe();
  const updateLanguage = useUpdateLanguage();
  const current: Language = isLanguage(i18n.language) ? i18n.language : 'fr';

  function choose(language: Language) {
    if (language === current) return;
    void applyLanguage(language);
    if (me.data) {
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
