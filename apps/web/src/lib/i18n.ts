import { defaultLanguage, languages, type Language } from '@cadence/shared/errors';
import { intlLocale, type IntlLocale } from '@cadence/shared/locale';
import type { TranslationKey } from '@cadence/shared/translation-key';
import i18n, { type i18n as I18n } from 'i18next';
import { getI18n, initReactI18next, useTranslation } from 'react-i18next';

const storageKey = 'cadence.language';

function isLanguage(value: unknown): value is Language {
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
 * The interface's language (French until i18next names another it knows), for texts, numbers
 * and plurals, and the Intl locale of its dates and times (`intlLocale`: 'en-GB' writes
 * '1 Dec 2026, 10:00', where the bare 'en' writes 'Dec 1, 2026, 10:00 AM'). Every component reads
 * the language here: eslint refuses `i18n.language` anywhere else. Re-renders when it changes.
 */
export function useLanguage(): { language: Language; locale: IntlLocale } {
  const { i18n: instance } = useTranslation();
  const language = isLanguage(instance.language) ? instance.language : defaultLanguage;
  return { language, locale: intlLocale(language) };
}

type Messages = Record<string, unknown>;

// One file per feature and language (locales/fr/accounts.json …), each with its top-level keys,
// all merged into i18next's one namespace; French is the source of truth, and a test fails when
// the two languages differ. A page downloads only its language's strings, and the sign-in screen
// only its own files ('auth', 'common'), the only ones bundled with it: French, the default
// language, shows with no request before the first paint (docs/decisions/037-first-load.md).
const lazyFiles = import.meta.glob<Messages>('../locales/*/*.json', { import: 'default' });
const bundledFiles = import.meta.glob<Messages>('../locales/fr/{auth,common}.json', {
  eager: true,
  import: 'default',
});

/** The files the sign-in screen needs; the app adds the rest (`loadAllStrings`). */
const signInFiles = ['auth', 'common'];
let allFilesInUse = false;
const loadedFiles = new Set<string>();

const fileName = (file: string) => file.slice(file.lastIndexOf('/') + 1, -'.json'.length);

/** Loads what is missing of the strings in use in `language` (a no-op once they are there). */
async function loadStrings(language: Language, instance: I18n): Promise<void> {
  const missing = Object.keys(lazyFiles).filter(
    (file) =>
      file.includes(`/locales/${language}/`) &&
      !loadedFiles.has(file) &&
      (allFilesInUse || signInFiles.includes(fileName(file))),
  );
  const bundles = await Promise.all(
    missing.map(async (file) => bundledFiles[file] ?? (await lazyFiles[file]!())),
  );
  bundles.forEach((messages, index) => {
    instance.addResourceBundle(language, 'translation', messages, true, true);
    loadedFiles.add(missing[index]!);
  });
}

/**
 * Switches every visible string at once (after loading the language's strings) and remembers the
 * choice on this device. `instance`: the i18next instance the components read (the app's own
 * unless a test provides another).
 */
export async function applyLanguage(language: Language, instance: I18n = i18n): Promise<void> {
  try {
    localStorage.setItem(storageKey, language);
  } catch {
    // Private mode: the choice still applies to this page.
  }
  await loadStrings(language, instance);
  document.documentElement.lang = language;
  await instance.changeLanguage(language);
}

/** Starts i18next in the stored language with the sign-in screen's strings. */
export async function initI18n(): Promise<typeof i18n> {
  const language = storedLanguage();
  document.documentElement.lang = language;
  await i18n.use(initReactI18next).init({
    resources: {},
    lng: language,
    fallbackLng: false,
    interpolation: { escapeValue: false },
    returnNull: false,
  });
  await loadStrings(language, i18n);
  return i18n;
}

/** Every screen's strings in the current language, before the app (any screen but /auth) shows. */
export async function loadAllStrings(): Promise<void> {
  allFilesInUse = true;
  await loadStrings(isLanguage(i18n.language) ? i18n.language : defaultLanguage, i18n);
}

/**
 * The other languages' strings, fetched when a language picker is about to be used (pointer over
 * it, focus, touch: `languagePickerIntent`), so the switch is all but instant. Not while the page
 * loads: most people never switch, and parsing them then would hold up the screen's first render.
 * A switch made before they arrive waits for them (`applyLanguage`).
 */
function loadOtherLanguages(): void {
  for (const language of languages.filter((other) => other !== i18n.language)) {
    loadStrings(language, i18n).catch(() => undefined); // Offline: the switch loads them again.
  }
}

/** Handlers for a language picker's container: they fetch the other languages' strings first. */
export const languagePickerIntent = {
  onPointerEnter: loadOtherLanguages,
  onFocus: loadOtherLanguages,
  onTouchStart: loadOtherLanguages,
};

/**
 * Whether a key that arrived as data (a server's field message, a zod message) has a text in the
 * strings the components read (react-i18next's instance), so it can be shown rather than a raw
 * key. Plural keys count by their base.
 */
export function hasText(value: string): value is TranslationKey {
  const instance = getI18n() as I18n | undefined;
  return (
    instance?.exists(value, { count: 2 }) === true &&
    typeof instance.getResource(instance.language, 'translation', value) !== 'object'
  );
}

const eagerFiles = import.meta.glob<Messages>('../locales/*/*.json', {
  eager: true,
  import: 'default',
});

function merged(language: Language): Messages {
  return Object.entries(eagerFiles)
    .filter(([file]) => file.includes(`/locales/${language}/`))
    .reduce<Messages>((all, [, messages]) => ({ ...all, ...messages }), {});
}

/**
 * Every string of both languages, for tests that start their own i18next instance. Not in any
 * bundle: nothing the app runs reads it, and the build drops it.
 */
export const resources = {
  fr: { translation: /* @__PURE__ */ merged('fr') },
  en: { translation: /* @__PURE__ */ merged('en') },
};
