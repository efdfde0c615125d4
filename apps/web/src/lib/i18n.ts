import { defaultLanguage, languages, type Language } from '@cadence/shared/errors';
import i18n, { type i18n as I18n } from 'i18next';
import { initReactI18next } from 'react-i18next';

const storageKey = 'cadence.language';

export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (languages as readonly string[]).includes(value);
}

export function storedLanguage(): Language {
  try {
    const value = localStorage.getItem(storageKey);
    return isLanguage(value) ? value : defaultLanguage;
  } catch {
    return defaultLanguage;
  }
}

/**
 * Switches every visible string at once and remembers the choice on this device. `instance`: the
 * i18next instance the components read (the app's own unless a test provides another).
 */
export async function applyLanguage(language: Language, instance: I18n = i18n): Promise<void> {
  try {
    localStorage.setItem(storageKey, language);
  } catch {
    // Private mode: the choice still applies to this page.
  }
  document.documentElement.lang = language;
  await instance.changeLanguage(language);
}

type Messages = Record<string, unknown>;

// One file per feature and language (locales/fr/accounts.json …), each with its top-level keys;
// French is the source of truth, and a test fails when the two languages differ.
const files = import.meta.glob<Messages>('../locales/*/*.json', { eager: true, import: 'default' });

function merged(language: Language): Messages {
  return Object.entries(files)
    .filter(([file]) => file.includes(`/locales/${language}/`))
    .reduce<Messages>((all, [, messages]) => ({ ...all, ...messages }), {});
}

export const resources = {
  fr: { translation: merged('fr') },
  en: { translation: merged('en') },
};

export async function initI18n(): Promise<typeof i18n> {
  const language = storedLanguage();
  document.documentElement.lang = language;
  await i18n.use(initReactI18next).init({
    resources,
    lng: language,
    fallbackLng: false,
    interpolation: { escapeValue: false },
    returnNull: false,
  });
  return i18n;
}
