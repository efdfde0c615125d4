/**
 * The closed set of error codes the API answers with. Each has one HTTP status (server) and one
 * translation key `errors.<code>` (web). Adding a code means adding both translations.
 */
export const errorStatus = {
  validation_failed: 400,
  unauthenticated: 401,
  pro_required: 403,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  rate_limited: 429,
  internal: 500,
  unavailable: 503,
} as const;

export type ErrorCode = keyof typeof errorStatus;

export const errorCodes = Object.keys(errorStatus) as ErrorCode[];

/** Body of every error response. `fields` maps a form field to a translation key. */
export interface ApiErrorBody {
  code: ErrorCode;
  message: string;
  fields?: Record<string, string>;
}

export const languages = ['fr', 'en'] as const;
export type Language = (typeof languages)[number];
export const defaultLanguage: Language = 'fr';
