import type { Language } from '@cadence/shared/errors';
import { intlLocale } from '@cadence/shared/locale';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { useLanguage } from '../../../lib/i18n.ts';
import { useMe } from '../../../lib/me.ts';
import { browserTimeZone, timeZoneCity, timeZoneOffsetName } from '../../../lib/time-zone.ts';

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

/** The zone times are shown and entered in (the user's setting, else the browser's) and its name. */
export function useTimeZone(): { timeZone: string; name: string } {
  const { t } = useTranslation();
  const me = useMe();
  const timeZone = me.data?.timeZone ?? browserTimeZone();
  const { language } = useLanguage();
  return { timeZone, name: timeZoneWords(timeZone, language, t) };
}
