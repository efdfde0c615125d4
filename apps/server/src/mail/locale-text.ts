import type { Language } from '@cadence/shared/errors';
import type { TranslationKey } from '@cadence/shared/translation-key';
import enScheduler from '../../../web/src/locales/en/scheduler.json';
import enSettings from '../../../web/src/locales/en/settings.json';
import frScheduler from '../../../web/src/locales/fr/scheduler.json';
import frSettings from '../../../web/src/locales/fr/settings.json';

// Emails say what the app says: the same sentences (a post's fail reason, a notification), read
// from the web's locale files, so the two can never tell a different story. Only the namespaces
// emails use are bundled into the server.
const catalogues: Record<Language, Record<string, unknown>> = {
  fr: { ...frScheduler, ...frSettings },
  en: { ...enScheduler, ...enSettings },
};

/** The sentence of `key` in `language` with `{{name}}` filled in; the key itself if missing. */
export function localeText(
  language: Language,
  key: TranslationKey,
  params: Record<string, string> = {},
): string {
  let node: unknown = catalogues[language];
  for (const part of key.split('.')) {
    node =
      typeof node === 'object' && node !== null ? (Reflect.get(node, part) as unknown) : undefined;
  }
  if (typeof node !== 'string') return key;
  return node.replace(/\{\{\s*(\w+)\s*\}\}/g, (whole, name: string) => params[name] ?? whole);
}
