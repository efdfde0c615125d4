import { errorStatus, type ApiErrorBody, type ErrorCode } from '@cadence/shared/errors';
import { isTranslationKey, type TranslationKey } from '@cadence/shared/translation-key';
import type { FastifyError, FastifyInstance } from 'fastify';
import { ZodError } from 'zod';

/** The one error type services throw for anything a client should hear about. */
export class AppError extends Error {
  override name = 'AppError';

  constructor(
    readonly code: ErrorCode,
    message: string = code,
    readonly fields?: Record<string, TranslationKey>,
  ) {
    super(message);
  }

  get statusCode(): number {
    return errorStatus[this.code];
  }
}

/** The keys a schema may put in its messages: `errors.x` or `<area>.errors.x`. */
const errorKeyShape = /^(?:[a-z]+\.)?errors\.[A-Za-z_]+$/;

/**
 * Zod issues → `{ field: translationKey }`; schemas put translation keys in their messages. A
 * message that is not an error key French has (zod's own English, a typo) becomes the generic one.
 */
export function fieldsFromZod(error: ZodError): Record<string, TranslationKey> {
  const fields: Record<string, TranslationKey> = {};
  for (const issue of error.issues) {
    const key = issue.path.join('.') || '_';
    const message = issue.message;
    fields[key] ??=
      errorKeyShape.test(message) && isTranslationKey(message) ? message : 'errors.invalid_value';
  }
  return fields;
}

/** The code of our closed set that a 4xx/5xx status from elsewhere (Fastify, better-auth) means. */
export function codeForStatus(status: number): ErrorCode {
  if (status === 401) return 'unauthenticated';
  if (status === 403) return 'forbidden';
  if (status === 404) return 'not_found';
  if (status === 409) return 'conflict';
  if (status === 429) return 'rate_limited';
  if (status >= 400 && status < 500) return 'validation_failed';
  return 'internal';
}

/**
 * One error handler: AppErrors and validation errors become their 4xx; anything a client could
 * trigger through Fastify (bad JSON, too large, wrong content type) keeps its 4xx; everything else
 * is logged with context and answered with a bare 500 that leaks nothing.
 */
export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | AppError | ZodError, request, reply) => {
    let status: number;
    let body: ApiErrorBody;
    if (error instanceof AppError) {
      status = error.statusCode;
      body = {
        code: error.code,
        message: error.message,
        ...(error.fields && { fields: error.fields }),
      };
    } else if (error instanceof ZodError) {
      status = 400;
      body = {
        code: 'validation_failed',
        message: 'Invalid request',
        fields: fieldsFromZod(error),
      };
    } else if (
      typeof error.statusCode === 'number' &&
      error.statusCode >= 400 &&
      error.statusCode < 500
    ) {
      status = error.statusCode;
      body = { code: codeForStatus(status), message: error.message };
    } else {
      request.log.error({ err: error }, 'request failed');
      status = 500;
      body = { code: 'internal', message: 'Internal error' };
    }
    if (status >= 500 && !(error instanceof AppError)) status = 500;
    // A client's mistake is worth a line, not an alarm: errors are for what Cadence got wrong.
    if (status < 500) request.log.warn({ statusCode: status, code: body.code }, 'request refused');
    void reply.status(status).send(body);
  });
}
