import { ApiError } from '../../../lib/api-client.ts';
import { useSchedulePreview } from '../api/planning.ts';
import { shownAtFields, type FieldErrors } from './form-errors.ts';
import { buildPreviewRequest, type SelectedVideo } from './form-request.ts';
import type { ScheduleFormState } from './form-state.ts';
import { useDebouncedValue } from './use-debounced-value.ts';

/**
 * The plan preview of the form's timing: the request (null when there is nothing to preview),
 * the debounced body sent, the answer, and its error unless the form already says it.
 */
export function useFormPreview(
  open: boolean,
  state: ScheduleFormState,
  videos: readonly SelectedVideo[],
  timeZone: string,
  errors: FieldErrors,
) {
  const request = open ? buildPreviewRequest(state, videos, timeZone) : null;
  const body = useDebouncedValue(request, 250);
  const query = useSchedulePreview(body);
  // What the form already says at a field, the preview does not say again.
  const error =
    query.error instanceof ApiError && shownAtFields(query.error.fields, errors)
      ? null
      : query.error;
  return { request, body, query, error };
}
