import {
  addToQueueSchema,
  createScheduleSchema,
  type AddToQueueRequest,
  type CreateScheduleRequest,
} from '@cadence/shared/schemas/schedule';

/** Where a message shows in the form. Captions are per video: `caption:<index>`. */
export type FormField =
  | 'videos'
  | 'accountId'
  | 'publishType'
  | 'date'
  | 'time'
  | 'interval.count'
  | 'interval.value'
  | 'interval.unit'
  | 'interval.startTime'
  | 'interval.startDate'
  | 'interval.randomizeTime'
  | `caption:${number}`
  | 'privacyLevel'
  | 'interactions'
  | 'commercialContent'
  | 'consent'
  | 'form';

const intervalFields: Record<string, FormField> = {
  count: 'interval.count',
  value: 'interval.value',
  unit: 'interval.unit',
  startTime: 'interval.startTime',
  startDate: 'interval.startDate',
  randomizeTime: 'interval.randomizeTime',
};

/** Maps an issue path (zod's, or a server `fields` key like 'spacedInterval.count') to a field. */
export function fieldForPath(path: readonly PropertyKey[]): FormField {
  const [head, second, third] = path.map(String);
  switch (head) {
    case 'accountId':
    case 'publishType':
    case 'date':
    case 'time':
    case 'privacyLevel':
    case 'commercialContent':
    case 'consent':
      return head;
    case 'mediaIds':
      return 'videos';
    case 'posts':
      return second !== undefined && third === 'title' && /^\d+$/.test(second)
        ? `caption:${Number(second)}`
        : 'videos';
    case 'spacedInterval':
      return (second !== undefined && intervalFields[second]) || 'interval.count';
    case 'allowComment':
    case 'allowDuet':
    case 'allowStitch':
      return 'interactions';
    case undefined:
    default:
      return 'form';
  }
}

export type FieldErrors = Partial<Record<FormField, string>>;

/** What the form submits: a schedule, or videos for the queue's next free slots. */
export type FormRequest =
  { kind: 'schedule'; body: CreateScheduleRequest } | { kind: 'queue'; body: AddToQueueRequest };

/** Validates with the API's own schema (the queue's for 'queue'); the first message per field wins. */
export function validateSchedule(
  request: unknown,
): { ok: true; request: FormRequest } | { ok: false; errors: FieldErrors } {
  const queue =
    typeof request === 'object' &&
    request !== null &&
    'publishType' in request &&
    request.publishType === 'queue';
  if (queue) {
    const result = addToQueueSchema.safeParse(request);
    return result.success
      ? { ok: true, request: { kind: 'queue', body: result.data } }
      : { ok: false, errors: issueErrors(result.error.issues) };
  }
  const result = createScheduleSchema.safeParse(request);
  return result.success
    ? { ok: true, request: { kind: 'schedule', body: result.data } }
    : { ok: false, errors: issueErrors(result.error.issues) };
}

function issueErrors(issues: readonly { path: PropertyKey[]; message: string }[]): FieldErrors {
  const errors: FieldErrors = {};
  for (const issue of issues) {
    const field = fieldForPath(issue.path);
    errors[field] ??= issue.message;
  }
  return errors;
}

/** A server's `fields` ({ 'spacedInterval.count': 'errors.invalidIntervalCount' }) as form errors. */
export function serverFieldErrors(fields: Record<string, string>): FieldErrors {
  const errors: FieldErrors = {};
  for (const [path, key] of Object.entries(fields)) {
    errors[fieldForPath(path.split('.'))] ??= key;
  }
  return errors;
}

/**
 * Whether every field a refusal names already shows that very message in the form: the plan
 * preview then does not repeat it (a past date is said once, under its field).
 */
export function shownAtFields(fields: Record<string, string>, errors: FieldErrors): boolean {
  const named = Object.entries(serverFieldErrors(fields));
  return named.length > 0 && named.every(([field, key]) => errors[field as FormField] === key);
}
