import { useCombobox } from 'downshift';
import { useEffect, useMemo, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { CheckIcon } from '../../../components/ui/icons.tsx';
import {
  PickerChevron,
  pickerMenuClass,
  pickerOptionClass,
} from '../../../components/ui/picker.tsx';
import { textInputClass } from '../../../components/ui/text-field.tsx';
import { useErrorText } from '../../../lib/error-text.ts';
import { formatTime } from '../../../lib/format.ts';
import { useLanguage } from '../../../lib/i18n.ts';
import { browserTimeZone } from '../../../lib/time-zone.ts';
import { timeZoneWords, useTimeZone } from '../../../lib/use-time-zone.ts';
import { useUpdateTimeZone } from '../api/update-time-zone.ts';
import { matchZones, zoneChoices, type ZoneChoice } from '../time-zones.ts';
import { SettingsCard } from './settings-card.tsx';

const { InputBlur, InputKeyDownEscape } = useCombobox.stateChangeTypes;

const label = (choice: ZoneChoice | null) =>
  choice === null ? '' : choice.region ? `${choice.city} (${choice.region})` : choice.city;

/** The clock's minute, moving on at each new one (for 'It is now 08:32'). */
function useMinute(): Date {
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    const timer = setTimeout(() => setNow(new Date()), 60_000 - (now.getTime() % 60_000));
    return () => clearTimeout(timer);
  }, [now]);
  return now;
}

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
  const [query, setQuery] = useState(() => label(chosen));
  // The field shows the chosen zone's name until the person types: then it searches.
  const typing = query !== label(chosen);
  const shown = useMemo(
    () => (typing ? matchZones(choices, query) : choices),
    [typing, choices, query],
  );
  const update = useUpdateTimeZone();
  const errorText = useErrorText('errors.internal');
  const [savedZone, setSavedZone] = useState<string | null>(null);
  const now = useMinute();

  const {
    isOpen,
    highlightedIndex,
    getLabelProps,
    getInputProps,
    getToggleButtonProps,
    getMenuProps,
    getItemProps,
  } = useCombobox<ZoneChoice>({
    items: shown,
    selectedItem: chosen,
    inputValue: query,
    itemToString: label,
    itemToKey: (choice) => choice?.id,
    onInputValueChange: ({ inputValue }) => setQuery(inputValue),
    onSelectedItemChange: ({ selectedItem }) => {
      if (!selectedItem) return;
      setChosenId(selectedItem.id);
      setQuery(label(selectedItem));
      setSavedZone(null);
    },
    // Leaving the field (or Escape) without choosing puts the chosen zone's name back; a click
    // that closes the list keeps what was typed.
    onStateChange: ({ type, selectedItem }) => {
      if (type === InputBlur || type === InputKeyDownEscape)
        setQuery(label(selectedItem ?? chosen));
    },
  });

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (chosen === null) return;
    setSavedZone(null);
    update.mutate(chosen.id, { onSuccess: (me) => setSavedZone(me.timeZone) });
  }

  const hintId = 'settings-time-zone-hint';
  const nowId = 'settings-time-zone-now';
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
        <div className="relative">
          <label
            {...getLabelProps({ className: 'mb-1.5 block text-sm font-medium text-slate-700' })}
          >
            {t('settings.timeZone.label')}
          </label>
          <div className="flex gap-2">
            <input
              {...getInputProps({
                className: textInputClass,
                spellCheck: false,
                autoComplete: 'off',
                'aria-describedby': `${hintId} ${nowId}`,
              })}
            />
            <button
              {...getToggleButtonProps({
                type: 'button',
                className:
                  'inline-flex min-h-11 min-w-11 shrink-0 items-center justify-center rounded-lg bg-white text-slate-600 ring-1 ring-inset ring-slate-300 hover:bg-slate-50 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-brand-500',
                'aria-label': t('settings.timeZone.showAll'),
              })}
            >
              <PickerChevron isOpen={isOpen} />
            </button>
          </div>
          <ul {...getMenuProps({ className: pickerMenuClass(isOpen) })}>
            {isOpen &&
              shown.map((choice, index) => (
                <li
                  key={choice.id}
                  {...getItemProps({ item: choice, index })}
                  className={pickerOptionClass(highlightedIndex === index)}
                >
                  <span className="min-w-0 flex-1">
                    <span className="font-medium text-slate-900">{choice.city}</span>
                    {choice.region && <span className="text-slate-600"> ({choice.region})</span>}
                    {choice.id === offered && (
                      <span className="ml-1.5 rounded bg-slate-100 px-1.5 py-0.5 text-xs text-slate-700">
                        {t('settings.timeZone.browser')}
                      </span>
                    )}
                  </span>
                  <span className="shrink-0 text-xs text-slate-600">{choice.offset}</span>
                  {choice.id === chosenId && (
                    <CheckIcon className="h-4 w-4 shrink-0 text-brand-600" />
                  )}
                </li>
              ))}
          </ul>
          <p role="status" className="empty:hidden mt-1.5 text-sm font-medium text-slate-800">
            {typing && shown.length === 0 ? t('settings.timeZone.noMatch', { query }) : ''}
          </p>
          <p id={hintId} className="mt-1.5 text-xs text-slate-500">
            {t('settings.timeZone.hint')}
          </p>
          <p id={nowId} className="mt-1 text-sm text-slate-700" data-testid="time-zone-now">
            {chosen &&
              t('settings.timeZone.now', {
                time: formatTime(now, language, chosen.id),
                zone: timeZoneWords(chosen.id, language, t),
                offset: chosen.offset,
              })}
          </p>
        </div>
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
