import { languages, type Language } from '@cadence/shared/errors';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert } from '../../../components/ui/alert.tsx';
import { applyLanguage, languagePickerIntent, useLanguage } from '../../../lib/i18n.ts';
import { useUpdateLanguage } from '../../../lib/me.ts';
import { SettingsCard } from './settings-card.tsx';

/** Each language named in itself, as language pickers do. */
const languageNames: Record<Language, string> = { fr: 'Français', en: 'English' };

/** The interface's language and the account's (its emails): one choice, applied at once. */
export function LanguageSection() {
  const { t, i18n } = useTranslation();
  const { language: inUse } = useLanguage();
  const updateLanguage = useUpdateLanguage();
  const [saved, setSaved] = useState(false);
  // The choice shows at once, while its strings may still be on their way: until the language
  // in use changes (to it, or to another one through the header's toggle).
  const [chosen, setChosen] = useState<{ language: Language; from: Language } | null>(null);
  const current = chosen?.from === inUse ? chosen.language : inUse;

  function choose(language: Language) {
    setSaved(false);
    setChosen({ language, from: inUse });
    void applyLanguage(language, i18n);
    updateLanguage.mutate(language, { onSuccess: () => setSaved(true) });
  }

  return (
    <SettingsCard
      title={t('settings.language.title')}
      description={t('settings.language.description')}
    >
      <fieldset {...languagePickerIntent}>
        <legend className="sr-only">{t('settings.language.title')}</legend>
        <div className="flex flex-wrap gap-3">
          {languages.map((language) => (
            <label
              key={language}
              lang={language}
              className={`flex cursor-pointer items-center gap-2.5 rounded-lg px-4 py-2.5 text-sm font-medium ring-1 ring-inset transition has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-brand-500 ${current === language ? 'bg-slate-900 text-white ring-slate-900' : 'bg-white text-slate-800 ring-slate-300 hover:bg-slate-50'}`}
            >
              <input
                type="radio"
                name="language"
                value={language}
                checked={current === language}
                onChange={() => choose(language)}
                className="h-4 w-4 accent-brand-500"
              />
              {languageNames[language]}
            </label>
          ))}
        </div>
      </fieldset>
      {updateLanguage.isError && (
        <div className="mt-4">
          <Alert tone="error">{t('errors.internal')}</Alert>
        </div>
      )}
      {saved && (
        <div className="mt-4">
          <Alert tone="success">{t('settings.language.saved')}</Alert>
        </div>
      )}
    </SettingsCard>
  );
}
