import { useTranslation } from 'react-i18next';
import { useLanguage } from '../../../lib/i18n.ts';
import { timeZoneWords } from '../../../lib/use-time-zone.ts';

/** 'heure de Paris' / 'Paris time' under a time field: the zone the time is read in. */
export function ZoneNote({ id, timeZone }: { id?: string; timeZone: string }) {
  const { t } = useTranslation();
  const { language } = useLanguage();
  return (
    <p id={id} className="mt-1 text-xs text-slate-500">
      {timeZoneWords(timeZone, language, t)}
    </p>
  );
}
