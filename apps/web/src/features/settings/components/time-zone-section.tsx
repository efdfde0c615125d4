import { useMemo, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { useErrorText } from '../../../lib/error-text.ts';
import { useLanguage } from '../../../lib/i18n.ts';
import { browserTimeZone } from '../../../lib/time-zone.ts';
import { timeZoneWords, useTimeZone } from '../../../lib/use-time-zone.ts';
import { useUpdateTimeZone } from '../api/update-time-zone.ts';
import { zoneChoices } from '../time-zones.ts';
import { SettingsCard } from './settings-card.tsx';
import { TimeZoneField } from './time-zone-field.tsx';

/**
 * The zone every time of the app is shown, entered and counted in: a searchable list of the IANA
 * zones (the ARIA 1.2 combobox, downshift's `useCombobox`), the browser's own offered first, with
 * the time it is now in the zone chosen. Saving moves every screen at once; posts keep their
 * instant, which the section says.
 */
export function TimeZoneSection() {
  const { t } = useTranslation();
  const { language, locale } = useLanguage();
  const { timeZone: saved } = useTimeZone();
  const offered = browserTimeZone();
  const choices = useMemo(() => zoneChoices(offered, saved, locale), [offered, saved, locale]);
  const [chosenId, setChosenId] = useState(saved);
  const chosen = choices.find((choice) => choice.id === chosenId) ?? null;
  const update = useUpdateTimeZone();
  const errorText = useErrorText('errors.internal');
  const [savedZone, setSavedZone] = useState<string | null>(null);

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (chosen === null) return;
    setSavedZone(null);
    update.mutate(chosen.id, { onSuccess: (me) => setSavedZone(me.timeZone) });
  }

  return (
    <SettingsCard
      id="time-zone"
      title={t('settings.timeZone.title')}
      description={t('settings.timeZone.description')}
    >
      <p className="mb-4 rounded-lg bg-sky-50 px-3 py-2 text-sm text-sky-900 ring-1 ring-inset ring-sky-200">
        {t('settings.timeZone.keepsInstant')}
      </p>
      <form className="space-y-4" onSubmit={onSubmit} noValidate>
        <TimeZoneField
          choices={choices}
          chosen={chosen}
          offered={offered}
          onChoose={(zone) => {
            setChosenId(zone.id);
            setSavedZone(null);
          }}
        />
        <Button type="submit" pending={update.isPending}>
          {t('settings.timeZone.save')}
        </Button>
      </form>
      {update.isError && (
        <div className="mt-4">
          <Alert tone="error">{errorText(update.error)}</Alert>
        </div>
      )}
      {savedZone !== null && (
        <div className="mt-4">
          <Alert tone="success">
            {t('settings.timeZone.saved', { zone: timeZoneWords(savedZone, language, t) })}
          </Alert>
        </div>
      )}
    </SettingsCard>
  );
}
