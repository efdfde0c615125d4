import i18next from 'i18next';
import { beforeAll, describe, expect, it } from 'vitest';
import { resources } from './i18n.ts';
import { timeZoneWords } from './use-time-zone.ts';

const i18n = i18next.createInstance();
beforeAll(async () => {
  await i18n.init({
    resources,
    lng: 'fr',
    fallbackLng: false,
    interpolation: { escapeValue: false },
  });
});

describe('timeZoneWords', () => {
  it("names a zone by its city: 'heure de Paris', 'heure d'Amsterdam', 'Paris time'", () => {
    expect(timeZoneWords('Europe/Paris', 'fr', i18n.getFixedT('fr'))).toBe('heure de Paris');
    expect(timeZoneWords('Europe/Amsterdam', 'fr', i18n.getFixedT('fr'))).toBe('heure d’Amsterdam');
    expect(timeZoneWords('America/New_York', 'fr', i18n.getFixedT('fr'))).toBe('heure de New York');
    expect(timeZoneWords('Europe/Paris', 'en', i18n.getFixedT('en'))).toBe('Paris time');
  });

  it('falls back to the offset as Intl writes it for zones without a city', () => {
    expect(timeZoneWords('Etc/GMT-3', 'fr', i18n.getFixedT('fr'))).toBe('heure UTC+3');
    expect(timeZoneWords('Etc/GMT-3', 'en', i18n.getFixedT('en'))).toBe('GMT+3 time');
  });
});
