import type { Language } from '@cadence/shared/errors';

/** CLDR plural category for `count` in `language` ('one' covers 0 and 1 in French, only 1 in English). */
export function plural(language: Language, count: number): Intl.LDMLPluralRule {
  return new Intl.PluralRules(language).select(count);
}
