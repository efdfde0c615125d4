import { useSelect } from 'downshift';
import type { KeyboardEvent, ReactNode } from 'react';
import { CheckIcon, Icon } from './icons.tsx';

/** One choice of a `Picker`. */
export interface PickerOption {
  /** The value it stands for ('' for 'none' or 'all'). */
  key: string;
  /** Plain text whose start type-ahead matches (e.g. a username without its '@'). */
  typeahead: string;
  disabled?: boolean;
}

/** The list under a picker or a combobox: in place, below its field, hidden while closed. */
export const pickerMenuClass = (isOpen: boolean) =>
  `absolute inset-x-0 top-full z-20 mt-1 max-h-72 overflow-y-auto rounded-lg bg-white py-1 text-sm shadow-lg ring-1 ring-slate-200 ${isOpen ? '' : 'hidden'}`;

/** One choice of that list, tinted while highlighted. */
export const pickerOptionClass = (highlighted: boolean) =>
  `flex cursor-pointer items-center gap-2 px-3 py-2 aria-disabled:cursor-not-allowed aria-disabled:opacity-60 ${highlighted ? 'bg-brand-50' : ''}`;

/** The chevron of a field whose list opens below it, turned while open. */
export function PickerChevron({ isOpen }: { isOpen: boolean }) {
  return (
    <Icon
      className={`h-4 w-4 shrink-0 text-slate-500 transition-transform ${isOpen ? 'rotate-180' : ''}`}
      d="m6 9 6 6 6-6"
    />
  );
}

const toggleSizes = {
  md: 'min-h-11 gap-2 px-3.5 py-2.5 text-base sm:text-sm',
  sm: 'min-h-8 gap-1.5 py-1.5 pl-2 pr-1.5 text-sm sm:pl-3 sm:pr-2',
} as const;

/**
 * A select whose chosen value and choices wrap instead of being cut (a native select cannot):
 * the ARIA 1.2 select-only combobox (downshift's `useSelect`, docs/decisions/041-account-picker.md).
 * Focus stays on the combobox; arrows, Home/End, Page Up/Down and type-ahead move through the
 * choices, Enter or Space chooses, Escape closes (without closing a dialog around it), Tab keeps
 * the highlighted choice like a native select. The list opens in place, below the field, inside
 * whatever dialog holds it (no portal: the dialogs keep focus and clicks inside themselves).
 */
export function Picker<TOption extends PickerOption>({
  id,
  label,
  labelClassName,
  options,
  value,
  onChange,
  renderOption,
  disabled = false,
  invalid = false,
  describedBy,
  size = 'md',
}: {
  /** The combobox's id, for a form that focuses its first invalid field. */
  id: string;
  label: ReactNode;
  labelClassName: string;
  options: readonly TOption[];
  value: string;
  onChange: (key: string) => void;
  /** A choice's content, in the list and in the field once chosen: its text is its name. */
  renderOption: (option: TOption) => ReactNode;
  disabled?: boolean;
  invalid?: boolean;
  describedBy?: string | undefined;
  size?: keyof typeof toggleSizes;
}) {
  const selectedItem = options.find((option) => option.key === value) ?? null;
  const {
    isOpen,
    highlightedIndex,
    getLabelProps,
    getToggleButtonProps,
    getMenuProps,
    getItemProps,
  } = useSelect<TOption>({
    items: [...options],
    selectedItem,
    itemToString: (option) => option?.typeahead ?? '',
    itemToKey: (option) => option?.key,
    isItemDisabled: (option) => option.disabled === true,
    toggleButtonId: id,
    onSelectedItemChange: ({ selectedItem: chosen }) => {
      if (chosen) onChange(chosen.key);
    },
  });

  // Escape closes the list only: the dialog around it skips a handled (default-prevented) Escape.
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'Escape' && isOpen) event.preventDefault();
  };
  const { disabled: _ignored, ...toggleProps } = getToggleButtonProps({
    disabled,
    onKeyDown,
    'aria-disabled': disabled || undefined,
    'aria-invalid': invalid || undefined,
    'aria-describedby': describedBy,
  });

  return (
    <div className="relative min-w-0">
      <label {...getLabelProps({ className: labelClassName })}>{label}</label>
      <div
        {...toggleProps}
        className={`flex w-full cursor-pointer items-center rounded-lg bg-white text-left text-slate-900 shadow-sm ring-1 ring-inset ring-slate-300 outline-none focus:ring-2 focus:ring-brand-500 aria-disabled:cursor-not-allowed aria-disabled:bg-slate-50 aria-disabled:text-slate-500 aria-[invalid=true]:ring-red-400 ${toggleSizes[size]}`}
      >
        <span className="min-w-0 flex-1">{selectedItem && renderOption(selectedItem)}</span>
        <PickerChevron isOpen={isOpen} />
      </div>
      <ul {...getMenuProps({ className: pickerMenuClass(isOpen) })}>
        {isOpen &&
          options.map((option, index) => (
            <li
              key={option.key}
              {...getItemProps({ item: option, index })}
              className={pickerOptionClass(highlightedIndex === index)}
            >
              <span className="min-w-0 flex-1">{renderOption(option)}</span>
              {option === selectedItem && <CheckIcon className="h-4 w-4 shrink-0 text-brand-600" />}
            </li>
          ))}
      </ul>
    </div>
  );
}
