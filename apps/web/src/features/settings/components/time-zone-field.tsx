import { useCombobox } from 'downshift';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CheckIcon } from '../../../components/ui/icons.tsx';
import {
  PickerChevron,
  pickerMenuClass,
  pickerOptionClass,
} from '../../../components/ui/picker.tsx';
import { textInputClass } from '../../../components/ui/text-field.tsx';
import { formatTime } from '../../../lib/format.ts';
import { useLanguage } from '../../../lib/i18n.ts';
import { timeZoneWords } from '../../../lib/use-time-zone.ts';
import { matchZones, type ZoneChoice } from '../time-zones.ts';

const { InputBlur, InputKeyDownEscape } = useCombobox.stateChangeTypes;

const label = (choice: ZoneChoice | null) =>
  choice === null ? '' : choice.region ? `${choice.city} (${choice.region})` : choice.city;

const hintId = 'settings-time-zone-hint';
const nowId = 'settings-time-zone-now';

/**
 * The combobox's state: what the field shows (the chosen zone's name, or what is being typed),
 * the zones matching it, and downshift's props for the field, the button, the list and its items.
 */
function useZoneCombobox(
  choices: ZoneChoice[],
  chosen: ZoneChoice | null,
  onChoose: (zone: ZoneChoice) => void,
) {
  const [query, setQuery] = useState(() => label(chosen));
  // The field shows the chosen zone's name until the person types: then it searches.
  const typing = query !== label(chosen);
  const shown = useMemo(
    () => (typing ? matchZones(choices, query) : choices),
    [typing, choices, query],
  );
  const combobox = useCombobox<ZoneChoice>({
    items: shown,
    selectedItem: chosen,
    inputValue: query,
    itemToString: label,
    itemToKey: (choice) => choice?.id,
    onInputValueChange: ({ inputValue }) => setQuery(inputValue),
    onSelectedItemChange: ({ selectedItem }) => {
      if (!selectedItem) return;
      onChoose(selectedItem);
      setQuery(label(selectedItem));
    },
    // Leaving the field (or Escape) without choosing puts the chosen zone's name back; a click
    // that closes the list keeps what was typed.
    onStateChange: ({ type, selectedItem }) => {
      if (type === InputBlur || type === InputKeyDownEscape)
        setQuery(label(selectedItem ?? chosen));
    },
  });
  return { query, typing, shown, ...combobox };
}

/**
 * The searchable list of the IANA zones (the ARIA 1.2 combobox, downshift's `useCombobox`): the
 * field shows the chosen zone's name, and typing searches. Below it, the time it is now there.
 */
export function TimeZoneField({
  choices,
  chosen,
  offered,
  onChoose,
}: {
  choices: ZoneChoice[];
  chosen: ZoneChoice | null;
  /** The browser's own zone, marked in the list. */
  offered: string;
  onChoose: (zone: ZoneChoice) => void;
}) {
  const { t } = useTranslation();
  const {
    query,
    typing,
    shown,
    isOpen,
    highlightedIndex,
    getLabelProps,
    getInputProps,
    getToggleButtonProps,
    getMenuProps,
    getItemProps,
  } = useZoneCombobox(choices, chosen, onChoose);

  return (
    <div className="relative">
      <label {...getLabelProps({ className: 'mb-1.5 block text-sm font-medium text-slate-700' })}>
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
              <ZoneOption
                choice={choice}
                browser={choice.id === offered}
                chosen={choice.id === chosen?.id}
              />
            </li>
          ))}
      </ul>
      <p role="status" className="empty:hidden mt-1.5 text-sm font-medium text-slate-800">
        {typing && shown.length === 0 ? t('settings.timeZone.noMatch', { query }) : ''}
      </p>
      <p id={hintId} className="mt-1.5 text-xs text-slate-500">
        {t('settings.timeZone.hint')}
      </p>
      <ZoneNow id={nowId} zone={chosen} />
    </div>
  );
}

/** A zone in the list: its city and region, whether it is the browser's, its offset. */
function ZoneOption({
  choice,
  browser,
  chosen,
}: {
  choice: ZoneChoice;
  browser: boolean;
  chosen: boolean;
}) {
  const { t } = useTranslation();
  return (
    <>
      <span className="min-w-0 flex-1">
        <span className="font-medium text-slate-900">{choice.city}</span>
        {choice.region && <span className="text-slate-600"> ({choice.region})</span>}
        {browser && (
          <span className="ml-1.5 rounded bg-slate-100 px-1.5 py-0.5 text-xs text-slate-700">
            {t('settings.timeZone.browser')}
          </span>
        )}
      </span>
      <span className="shrink-0 text-xs text-slate-600">{choice.offset}</span>
      {chosen && <CheckIcon className="h-4 w-4 shrink-0 text-brand-600" />}
    </>
  );
}

/** The clock's minute, moving on at each new one (for 'It is now 08:32'). */
function useMinute(): Date {
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    const timer = setTimeout(() => setNow(new Date()), 60_000 - (now.getTime() % 60_000));
    return () => clearTimeout(timer);
  }, [now]);
  return now;
}

/** The time it is now in the chosen zone, with the zone in words and its offset. */
function ZoneNow({ id, zone }: { id: string; zone: ZoneChoice | null }) {
  const { t } = useTranslation();
  const { language } = useLanguage();
  const now = useMinute();
  return (
    <p id={id} className="mt-1 text-sm text-slate-700" data-testid="time-zone-now">
      {zone &&
        t('settings.timeZone.now', {
          time: formatTime(now, language, zone.id),
          zone: timeZoneWords(zone.id, language, t),
          offset: zone.offset,
        })}
    </p>
  );
}
