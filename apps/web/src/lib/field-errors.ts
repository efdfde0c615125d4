import type { TranslationKey } from '@cadence/shared/translation-key';
import type { ZodError } from 'zod';
import { ApiError } from './api-client.ts';
import { hasText } from './i18n.ts';

/** Field name → translation key. `_` is the form as a whole. */
export type FieldErrors = Partial<Record<string, TranslationKey>>;

/**
 * A shared schema's refusal as one message per field: the first issue of each, whose message is a
 * translation key (packages/shared puts keys in its messages); anything else is 'invalid value'.
 */
export function zodFieldErrors(error: ZodError): FieldErrors {
  const fields: FieldErrors = {};
  for (const issue of error.issues) {
    const field = String(issue.path[0] ?? '_');
    fields[field] ??= hasText(issue.message) ? issue.message : 'errors.invalid_value';
  }
  return fields;
}

/** The per-field keys a 4xx from the API named, when it named any we can show. */
export function apiFieldErrors(error: unknown): FieldErrors | null {
  if (!(error instanceof ApiError)) return null;
  const fields: FieldErrors = {};
  for (const [field, key] of Object.entries(error.fields)) {
    if (hasText(key)) fields[field] = key;
  }
  return Object.keys(fields).length > 0 ? fields : null;
}
