import { errorCodes, type ErrorCode } from '@cadence/shared/errors';

/** A failed API call. `code` is the server's code (ours, or better-auth's for /api/auth). */
export class ApiError extends Error {
  override name = 'ApiError';

  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly fields: Record<string, string> = {},
  ) {
    super(message);
  }

  /** The translation key for this error, under `errors.`; unknown codes fall back to `internal`. */
  get translationKey(): `errors.${ErrorCode | 'network'}` {
    if (this.code === 'network') return 'errors.network';
    return errorCodes.includes(this.code as ErrorCode)
      ? `errors.${this.code as ErrorCode}`
      : 'errors.internal';
  }
}

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  body?: unknown;
  signal?: AbortSignal;
  /** An Idempotency-Key (lib/request-keys.ts): the server makes the request once, however often sent. */
  idempotencyKey?: string;
}

/**
 * What checks an answer: a shared zod schema, or `unchecked`. The client itself runs no zod: the
 * sign-in screen's first load goes without it (docs/decisions/037-first-load.md).
 */
export interface AnswerSchema<TAnswer> {
  parse(data: unknown): TAnswer;
}

/** For an answer nobody reads (the session cookie is what counts) or that is parsed later. */
export const unchecked: AnswerSchema<unknown> = { parse: (data) => data };

/** Calls the API with the session cookie and parses the answer with `schema`. */
export async function apiRequest<TAnswer>(
  path: string,
  schema: AnswerSchema<TAnswer>,
  { method = 'GET', body, signal, idempotencyKey }: RequestOptions = {},
): Promise<TAnswer> {
  let response: Response;
  try {
    response = await fetch(path, {
      method,
      credentials: 'same-origin',
      headers: {
        ...(body !== undefined && { 'content-type': 'application/json' }),
        ...(idempotencyKey !== undefined && { 'idempotency-key': idempotencyKey }),
      },
      ...(body !== undefined && { body: JSON.stringify(body) }),
      ...(signal && { signal }),
    });
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    throw new ApiError(0, 'network', 'Network error');
  }
  const json = parseJson(await response.text());
  if (!response.ok) {
    const refusal = errorBody(json);
    throw refusal
      ? new ApiError(response.status, refusal.code, refusal.message ?? refusal.code, refusal.fields)
      : new ApiError(
          response.status,
          response.status >= 500 ? 'internal' : 'validation_failed',
          response.statusText,
        );
  }
  if (json === invalidJson)
    throw new ApiError(response.status, 'internal', 'The server answered with invalid JSON');
  return schema.parse(json);
}

const invalidJson = Symbol('invalid JSON');

interface ErrorBody {
  code: string;
  message?: string;
  fields?: Record<string, string>;
}

const isText = (value: unknown): value is string => typeof value === 'string';

/**
 * A refusal's body: ours (`{ code, message, fields }`, apps/server/src/lib/app-error.ts) or
 * better-auth's (`{ code, message }`); null for anything else (a proxy's page). Checked by hand, as
 * the client runs no zod.
 */
function errorBody(json: unknown): ErrorBody | null {
  if (typeof json !== 'object' || json === null || !('code' in json) || !isText(json.code))
    return null;
  const message = 'message' in json ? json.message : undefined;
  const fields = 'fields' in json ? json.fields : undefined;
  if (message !== undefined && !isText(message)) return null;
  if (fields !== undefined && !isTextRecord(fields)) return null;
  return { code: json.code, ...(message !== undefined && { message }), ...(fields && { fields }) };
}

function isTextRecord(value: unknown): value is Record<string, string> {
  return (
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    Object.values(value).every(isText)
  );
}

/** A proxy's HTML error page or an empty body must not surface as a SyntaxError. */
function parseJson(text: string): unknown {
  if (!text) return null;
  try {
    return JSON.parse(text);
  } catch {
    return invalidJson;
  }
}
