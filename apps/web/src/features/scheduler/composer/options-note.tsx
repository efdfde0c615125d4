import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../../lib/format.ts';
import { useLanguage } from '../../../lib/i18n.ts';
import { useTimeZone } from '../../../lib/use-time-zone.ts';
import type { CreatorOptionsNote } from './tiktok-rules.ts';

/** Where the options come from, or why there are none, while TikTok refuses posts for now. */
export function OptionsNote({ note }: { note: CreatorOptionsNote }) {
  const { t } = useTranslation();
  const { language } = useLanguage();
  const { timeZone } = useTimeZone();
  if (note === null) return null;
  return (
    <p
      className="rounded-xl bg-sky-50 px-3.5 py-3 text-sm text-sky-950 ring-1 ring-inset ring-sky-200"
      data-testid="creator-options-note"
    >
      {note.kind === 'reportedOn'
        ? t('scheduler.form.privacy.reportedOn', {
            date: formatDateTime(note.fetchedAt, language, timeZone),
          })
        : note.kind === 'laterDayOnly'
          ? t('schedules.errors.cannotPostToday')
          : t('scheduler.form.privacy.noneKnown')}
    </p>
  );
}
