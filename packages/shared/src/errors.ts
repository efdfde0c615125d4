import type { TranslationKey } from './translation-key.ts';

/**
 * The closed set of error codes the API answers with. Each has one default HTTP status (server)
 * and one translation key `errors.<code>` (web). Adding a code means adding both translations
 * (type-checked: `errorKey` does not compile while French lacks the key).
 */
export const errorStatus = {
  validation_failed: 400,
  unauthenticated: 401,
  pro_required: 403,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  rate_limited: 429,
  // A refused upload (tus). 422 once the file is in; the upload routes answer it with an explicit
  // 400 (unusable metadata) or 413 (over the quota) at creation, as tus clients expect.
  media_rejected: 422,
  internal: 500,
  unavailable: 503,
} as const;

export type ErrorCode = keyof typeof errorStatus;

export const errorCodes = Object.keys(errorStatus) as ErrorCode[];

/** The translation key of a code: what a client shows when nothing more precise was sent. */
export function errorKey(code: ErrorCode): TranslationKey {
  return `errors.${code}`;
}

/** Body of every error response. `fields` maps a form field to a translation key. */
export interface ApiErrorBody {
  code: ErrorCode;
  message: string;
  fields?: Record<string, TranslationKey>;
}

export const languages = ['fr', 'en'] as const;
export type Language = (typeof languages)[number];
export const defaultLanguage: Language = 'fr';
