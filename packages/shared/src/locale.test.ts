import { describe, expect, it } from 'vitest';
import { dateFormatter } from './date-format.ts';
import { languages } from './errors.ts';
import { intlLocale } from './locale.ts';

describe('intlLocale', () => {
  it('writes French as fr-FR and English as en-GB, not the US English of a bare "en"', () => {
    expect(intlLocale('fr')).toBe('fr-FR');
    expect(intlLocale('en')).toBe('en-GB');
  });

  it('gives every language a locale Intl knows as that language', () => {
    for (const language of languages) {
      expect(new Intl.Locale(intlLocale(language)).language).toBe(language);
    }
  });

  it('writes an English date day first with a 24-hour clock', () => {
    const date = new Date('2026-12-01T10:00:00Z');
    const options = { dateStyle: 'long', timeStyle: 'short', timeZone: 'UTC' } as const;
    expect(dateFormatter(intlLocale('en'), options).format(date)).toBe('1 December 2026 at 10:00');
    expect(dateFormatter(intlLocale('fr'), options).format(date)).toBe('1er décembre 2026 à 10:00');
  });
});
