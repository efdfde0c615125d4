import { errorStatus, type ApiErrorBody, type ErrorCode } from '@cadence/shared/errors';
import { isTranslationKey, type TranslationKey } from '@cadence/shared/translation-key';
import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import type {
  FastifyError,
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  FastifyServerOptions,
} from 'fastify';
import { ZodError } from 'zod';
import { isForeignKeyViolation, isUniqueViolation } from '../db/pg-errors.ts';

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

/** The answer an error gets: its status and the body every refusal shares. */
function errorAnswer(
  error: FastifyError | AppError | ZodError,
  request: FastifyRequest,
): { status: number; body: ApiErrorBody } {
  if (error instanceof AppError) {
    return {
      status: error.statusCode,
      body: {
        code: error.code,
        message: error.message,
        ...(error.fields && { fields: error.fields }),
      },
    };
  }
  if (error instanceof ZodError) {
    return {
      status: 400,
      body: { code: 'validation_failed', message: 'Invalid request', fields: fieldsFromZod(error) },
    };
  }
  // Every route checks what it refers to before it writes; a database refusal left is a race
  // another request won (the video, account or the user themselves deleted meanwhile; the same
  // row added twice at once): the client's answer is the one a later request would have had.
  if (isForeignKeyViolation(error)) {
    request.log.warn({ err: error }, 'request lost a race');
    return { status: 404, body: { code: 'not_found', message: 'Deleted meanwhile' } };
  }
  if (isUniqueViolation(error)) {
    request.log.warn({ err: error }, 'request lost a race');
    return { status: 409, body: { code: 'conflict', message: 'Added meanwhile' } };
  }
  if (typeof error.statusCode === 'number' && error.statusCode >= 400 && error.statusCode < 500) {
    return {
      status: error.statusCode,
      body: { code: codeForStatus(error.statusCode), message: error.message },
    };
  }
  request.log.error({ err: error }, 'request failed');
  return { status: 500, body: { code: 'internal', message: 'Internal error' } };
}

function sendError(
  error: FastifyError | AppError | ZodError,
  request: FastifyRequest,
  reply: FastifyReply,
): void {
  const { status, body } = errorAnswer(error, request);
  // A client's mistake is worth a line, not an alarm: errors are for what Cadence got wrong.
  if (status < 500) request.log.warn({ statusCode: status, code: body.code }, 'request refused');
  void reply.status(status).send(body);
}

/**
 * One error handler: AppErrors and validation errors become their 4xx; anything a client could
 * trigger through Fastify (bad JSON, too large, wrong content type) keeps its 4xx; everything else
 * is logged with context and answered with a bare 500 that leaks nothing.
 */
export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler(sendError);
}

/**
 * Fastify's options for the refusals it makes before any route or error handler runs: an address
 * it cannot decode (`/%zz`), a path parameter over `maxParamLength`, a request line or headers
 * Node cannot parse. Left to Fastify, they answer `{error, code: 'FST_ERR_…', statusCode}`, a code
 * outside our closed set that no client can translate, without our headers; these give them the
 * body every other refusal has, and (`securityHeaders`: the app's helmet, which runs as a hook
 * that these refusals skip) the headers every other answer has.
 */
export function frameworkErrorOptions(
  securityHeaders: (request: FastifyRequest, reply: FastifyReply) => void,
) {
  return {
    frameworkErrors(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
      securityHeaders(request, reply);
      void reply.header('cache-control', 'no-store');
      sendError(error, request, reply);
    },
    clientErrorHandler(error: Error & { code?: string }, socket: Duplex): void {
      // A reset connection has nobody left to answer (as Fastify's own handler does).
      if (error.code === 'ECONNRESET' || socket.destroyed) return;
      const status =
        error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
          ? 408
          : error.code === 'HPE_HEADER_OVERFLOW'
            ? 431
            : 400;
      const body = JSON.stringify({
        code: codeForStatus(status),
        message: STATUS_CODES[status] ?? 'Bad Request',
      } satisfies ApiErrorBody);
      // No request was parsed, so no helmet: a bare JSON answer needs only these.
      if (socket.writable) {
        socket.write(
          `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
            `Content-Type: application/json; charset=utf-8\r\nCache-Control: no-store\r\n` +
            `X-Content-Type-Options: nosniff\r\nConnection: close\r\n\r\n${body}`,
        );
      }
      socket.destroy(error);
    },
  } satisfies Pick<FastifyServerOptions, 'frameworkErrors' | 'clientErrorHandler'>;
}
