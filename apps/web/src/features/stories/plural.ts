/** CLDR plural category for `count` in `language` ('one' covers 0 and 1 in French, only 1 in English). */
export function plural(language: string, count: number): Intl.LDMLPluralRule {
  return new Intl.PluralRules(language).select(count);
}
