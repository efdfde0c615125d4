import { errorCodes, type ErrorCode } from '@cadence/shared/errors';
import { z } from 'zod';

const errorBodySchema = z.object({
  code: z.string(),
  message: z.string().optional(),
  fields: z.record(z.string(), z.string()).optional(),
});

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
}

/** Calls the API with the session cookie and parses the answer with `schema`. */
export async function apiRequest<TSchema extends z.ZodType>(
  path: string,
  schema: TSchema,
  { method = 'GET', body, signal }: RequestOptions = {},
): Promise<z.infer<TSchema>> {
  let response: Response;
  try {
    response = await fetch(path, {
      method,
      credentials: 'same-origin',
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      ...(body !== undefined && { body: JSON.stringify(body) }),
      ...(signal && { signal }),
    });
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    throw new ApiError(0, 'network', 'Network error');
  }
  const json = parseJson(await response.text());
  if (!response.ok) {
    const parsed = errorBodySchema.safeParse(json);
    throw parsed.success
      ? new ApiError(
          response.status,
          parsed.data.code,
          parsed.data.message ?? parsed.data.code,
          parsed.data.fields,
        )
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

/** A proxy's HTML error page or an empty body must not surface as a SyntaxError. */
function parseJson(text: string): unknown {
  if (!text) return null;
  try {
    return JSON.parse(text);
  } catch {
    return invalidJson;
  }
}
