import { useEffect, useId } from 'react';
import type { FieldErrors, FormField } from './form-errors.ts';

/** The ids of the form's inputs a message can point to (and focus move to). */
export function useFormFieldIds() {
  return {
    videos: useId(),
    account: useId(),
    privacy: useId(),
    date: useId(),
    time: useId(),
    count: useId(),
    value: useId(),
    startTime: useId(),
    startDate: useId(),
    consent: useId(),
  };
}

export type FormFieldIds = ReturnType<typeof useFormFieldIds>;

/** The form's fields in the order they show, each with its input's id. */
function focusOrder(ids: FormFieldIds): [FormField, string][] {
  return [
    ['videos', ids.videos],
    ['accountId', ids.account],
    ['privacyLevel', ids.privacy],
    ['date', ids.date],
    ['time', ids.time],
    ['interval.count', ids.count],
    ['interval.value', ids.value],
    ['interval.startDate', ids.startDate],
    ['interval.startTime', ids.startTime],
    ['consent', ids.consent],
  ];
}

/** The id of the first field, in the form's order, that `errors` names. */
export function firstFieldWithError(ids: FormFieldIds, errors: FieldErrors): string | undefined {
  return focusOrder(ids).find(([field]) => errors[field] !== undefined)?.[1];
}

/**
 * A refusal from the server (a date that passed in the meantime, an account that lost its
 * access) moves focus to its first field once the field shows why, as the form's own checks
 * do at submit. Any edit clears the server's errors, so focus never moves while one types.
 */
export function useFocusOnRefusal(ids: FormFieldIds, serverErrors: FieldErrors) {
  const refusedFieldId = firstFieldWithError(ids, serverErrors);
  useEffect(() => {
    if (refusedFieldId !== undefined) document.getElementById(refusedFieldId)?.focus();
  }, [serverErrors, refusedFieldId]);
}
