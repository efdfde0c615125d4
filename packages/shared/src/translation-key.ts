// Every key of the French locale (the source of truth, apps/web/src/locales/fr/*.json) as a type:
// a server error, a field message or a `t()` call naming a key French lacks fails type-checking.
// Derived from the JSON itself, so it is never stale and nothing has to be generated.
// The same JSON also gives the runtime set behind `isTranslationKey`, for keys that arrive as data
// (a zod message, a code from a library) rather than as literals the type checker sees.
import accounts from '../../../apps/web/src/locales/fr/accounts.json';
import analytics from '../../../apps/web/src/locales/fr/analytics.json';
import auth from '../../../apps/web/src/locales/fr/auth.json';
import calendar from '../../../apps/web/src/locales/fr/calendar.json';
import common from '../../../apps/web/src/locales/fr/common.json';
import media from '../../../apps/web/src/locales/fr/media.json';
import memes from '../../../apps/web/src/locales/fr/memes.json';
import planner from '../../../apps/web/src/locales/fr/planner.json';
import scheduler from '../../../apps/web/src/locales/fr/scheduler.json';
import schedules from '../../../apps/web/src/locales/fr/schedules.json';
import settings from '../../../apps/web/src/locales/fr/settings.json';
import stories from '../../../apps/web/src/locales/fr/stories.json';

export type French = typeof accounts &
  typeof analytics &
  typeof auth &
  typeof calendar &
  typeof common &
  typeof media &
  typeof memes &
  typeof planner &
  typeof scheduler &
  typeof schedules &
  typeof settings &
  typeof stories;

/** i18next plurals (`key_one`, `key_many`, `key_other`) are used in code as plain `key`. */
type Singular<K extends string> =
  K extends `${infer Base}_${'zero' | 'one' | 'two' | 'few' | 'many' | 'other'}` ? Base : K;

type Leaves<T, Prefix extends string = ''> = {
  [K in keyof T & string]: T[K] extends string
    ? `${Prefix}${Singular<K>}`
    : Leaves<T[K], `${Prefix}${K}.`>;
}[keyof T & string];

export type TranslationKey = Leaves<French>;

const pluralSuffix = /_(?:zero|one|two|few|many|other)$/;

function collectKeys(node: unknown, prefix: string, into: Set<string>): void {
  if (typeof node === 'string') {
    into.add(prefix.replace(pluralSuffix, ''));
    return;
  }
  if (typeof node !== 'object' || node === null) return;
  for (const [name, child] of Object.entries(node)) {
    collectKeys(child, prefix ? `${prefix}.${name}` : name, into);
  }
}

/**
 * The runtime twin of `TranslationKey`: every key of fr/*.json, plural keys by their base. Pure, so
 * a bundle that never reads it (the web app's: it asks i18next) leaves the French strings out.
 */
export const translationKeys: ReadonlySet<string> = /* @__PURE__ */ (() => {
  const keys = new Set<string>();
  for (const namespace of [
    accounts,
    analytics,
    auth,
    calendar,
    common,
    media,
    memes,
    planner,
    scheduler,
    schedules,
    settings,
    stories,
  ]) {
    collectKeys(namespace, '', keys);
  }
  return keys;
})();

/** Whether a string that arrived as data is a key French has (so a client can show its text). */
export function isTranslationKey(value: string): value is TranslationKey {
  return translationKeys.has(value);
}

/** A key put in a zod message: typed, so a schema cannot name a key French lacks. */
export const messageKey = (key: TranslationKey): TranslationKey => key;
