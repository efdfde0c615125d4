import type { Language } from '@cadence/shared/errors';
import { intlLocale } from '@cadence/shared/locale';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { useLanguage } from './i18n.ts';
import { useMe } from './me.ts';
import { browserTimeZone, timeZoneCity, timeZoneOffsetName } from './time-zone.ts';

/** French elides 'de' before a vowel or a mute h: 'heure d'Amsterdam'. */
const elides = /^[aeiouyhàâéèêîôûAEIOUYHÀÂÉÈÊÎÔÛ]/;

/** A zone in words: 'heure de Paris' / 'Paris time'; 'heure UTC+3' for a zone that names no city. */
export function timeZoneWords(timeZone: string, language: Language, t: TFunction): string {
  const city = timeZoneCity(timeZone);
  if (city === null) {
    return t('timeZone.offset', { offset: timeZoneOffsetName(timeZone, intlLocale(language)) });
  }
  return t(elides.test(city) ? 'timeZone.namedElided' : 'timeZone.named', { city });
}

/**
 * The one zone every time of the app is shown, entered and counted in: the person's setting
 * (/settings), else the browser's until the guard has saved it as theirs. Screens read it here,
 * never from the browser (an ESLint rule holds them to it), so a change in /settings moves every
 * screen at once.
 */
export function useTimeZone(): { timeZone: string; name: string } {
  const { t } = useTranslation();
  const me = useMe();
  const timeZone = me.data?.timeZone ?? browserTimeZone();
  const { language } = useLanguage();
  return { timeZone, name: timeZoneWords(timeZone, language, t) };
}
