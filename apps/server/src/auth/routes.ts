import rateLimit from '@fastify/rate-limit';
import {
  authSessionSchema,
  authStatusReplySchema,
  authUserReplySchema,
  changePasswordSchema,
  emptyBodySchema,
  requestPasswordResetSchema,
  resetPasswordSchema,
  revokeSessionSchema,
  sessionReplySchema,
  signInSchema,
  signOutReplySchema,
  signUpSchema,
  updateUserSchema,
} from '@cadence/shared/schemas/auth';
import { isAPIError } from 'better-auth/api';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { errorKey, type ApiErrorBody } from '@cadence/shared/errors';
import type { TranslationKey } from '@cadence/shared/translation-key';
import { z } from 'zod';
import { AppError, codeForStatus } from '../lib/app-error.ts';
import type { Auth } from './auth.ts';
import { checkPasswordAgain } from './password-check.ts';

/**
 * The better-auth endpoints Cadence uses, each with the shared schema its body must pass before
 * better-auth sees it. better-auth's own checks let through values our database refuses (a 500)
 * or should never hold (a 100,000-character name, a `javascript:` avatar), and its other endpoints
 * (social sign-in, email change, account linking…) serve features Cadence does not have: those
 * are simply not routed, so they answer 404.
 */
const endpoints: readonly {
  method: 'GET' | 'POST';
  path: string;
  /** For the API reference (/api/docs). */
  summary: string;
  body?: z.ZodType;
  /** The 200 reply, as forwarded (see the shared schemas: better-auth writes it). */
  reply: z.ZodType;
  /** Turns the validated body into what better-auth expects. */
  prepare?: (auth: Auth, request: FastifyRequest, body: unknown) => Promise<unknown>;
  limit?: 'sign-in' | 'sign-up' | 'password-reset';
  /** better-auth refusals this endpoint pins on one of its fields, with its own message. */
  fieldErrors?: Partial<Record<string, { field: string; key: TranslationKey }>>;
}[] = [
  {
    method: 'POST',
    path: 'sign-up/email',
    summary: 'Create an account and sign in',
    body: signUpSchema,
    reply: authUserReplySchema,
    limit: 'sign-up',
  },
  {
    method: 'POST',
    path: 'sign-in/email',
    summary: 'Sign in with email and password',
    body: signInSchema,
    reply: authUserReplySchema,
    limit: 'sign-in',
  },
  {
    method: 'POST',
    path: 'sign-out',
    summary: 'End this session',
    body: emptyBodySchema,
    reply: signOutReplySchema,
  },
  {
    method: 'GET',
    path: 'get-session',
    summary: 'This session and its person (null when signed out)',
    reply: sessionReplySchema,
  },
  {
    method: 'POST',
    path: 'update-user',
    summary: 'Change name or language',
    body: updateUserSchema,
    reply: authStatusReplySchema,
  },
  {
    method: 'POST',
    path: 'change-password',
    summary: 'Change the password; every other session ends',
    body: changePasswordSchema,
    reply: authUserReplySchema,
    // The current password is checked first, as every grave change checks it, with the same
    // limit on wrong ones (password-check.ts); better-auth checks it again.
    prepare: async (auth, request, body) => {
      const parsed = changePasswordSchema.parse(body);
      await checkPasswordAgain(auth, request, parsed.currentPassword, 'currentPassword');
      return { ...parsed, revokeOtherSessions: true };
    },
    fieldErrors: {
      INVALID_PASSWORD: { field: 'currentPassword', key: 'auth.errors.wrongCurrentPassword' },
    },
  },
  // The reset link points at the web app (/auth/reset?token=…), never at better-auth's GET
  // callback, so no redirect target is ever taken from a request.
  {
    method: 'POST',
    path: 'request-password-reset',
    summary: 'Mail a reset link (the same answer whether the address exists or not)',
    body: requestPasswordResetSchema,
    reply: authStatusReplySchema,
    limit: 'password-reset',
  },
  {
    method: 'POST',
    path: 'reset-password',
    summary: "Set a new password with a reset link's token",
    body: resetPasswordSchema,
    reply: authStatusReplySchema,
    limit: 'password-reset',
  },
  {
    method: 'GET',
    path: 'list-sessions',
    summary: "The signed-in person's sessions",
    reply: z.array(authSessionSchema),
  },
  {
    method: 'POST',
    path: 'revoke-session',
    summary: 'End one of my sessions, by id',
    body: revokeSessionSchema,
    reply: authStatusReplySchema,
    prepare: sessionTokenOf,
  },
  {
    method: 'POST',
    path: 'revoke-sessions',
    summary: 'End all my sessions',
    body: emptyBodySchema,
    reply: authStatusReplySchema,
  },
  {
    method: 'POST',
    path: 'revoke-other-sessions',
    summary: 'End all my sessions but this one',
    body: emptyBodySchema,
    reply: authStatusReplySchema,
  },
];

/** better-auth's refusals that a person can meet → the spec's messages (§8). */
const messageKeyByAuthCode: Partial<Record<string, TranslationKey>> = {
  USER_ALREADY_EXISTS: 'auth.errors.emailInUse',
  USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL: 'auth.errors.emailInUse',
  INVALID_EMAIL: 'auth.errors.invalidEmail',
  PASSWORD_TOO_SHORT: 'auth.errors.weakPassword',
  PASSWORD_TOO_LONG: 'auth.errors.passwordTooLong',
  INVALID_EMAIL_OR_PASSWORD: 'auth.errors.wrongCredentials',
  INVALID_PASSWORD: 'auth.errors.wrongCredentials',
  USER_NOT_FOUND: 'auth.errors.wrongCredentials',
  // Unknown, used or expired reset token: one message, which of the three is nobody's business.
  INVALID_TOKEN: 'auth.errors.resetLinkInvalid',
};

const authErrorBodySchema = z.object({ code: z.string(), message: z.string().optional() });

/**
 * better-auth answers its refusals with its own codes; the API speaks one closed set (ErrorCode)
 * with a translation key, so a client handles /api/auth like every other route.
 */
export function toApiErrorBody(
  status: number,
  body: unknown,
  fieldErrors: Partial<Record<string, { field: string; key: TranslationKey }>> = {},
): ApiErrorBody {
  const parsed = authErrorBodySchema.safeParse(body);
  const code = codeForStatus(status);
  const message = parsed.success ? (parsed.data.message ?? parsed.data.code) : code;
  const pinned = parsed.success ? fieldErrors[parsed.data.code] : undefined;
  if (pinned) return { code, message, fields: { [pinned.field]: pinned.key } };
  const key = parsed.success ? messageKeyByAuthCode[parsed.data.code] : undefined;
  return { code, message, fields: { _: key ?? errorKey(code) } };
}

/** The token of one of the requester's own sessions, from its id; 404 when it is not theirs. */
async function sessionTokenOf(auth: Auth, request: FastifyRequest, body: unknown) {
  const { id } = revokeSessionSchema.parse(body);
  const headers = new Headers();
  if (request.headers.cookie) headers.set('cookie', request.headers.cookie);
  const sessions = await auth.api.listSessions({ headers }).catch((error: unknown) => {
    if (isAPIError(error) && error.statusCode === 401) {
      throw new AppError('unauthenticated', 'Sign in first');
    }
    throw error;
  });
  const session = sessions.find((candidate) => candidate.id === id);
  if (!session) throw new AppError('not_found', 'No such session');
  return { token: session.token };
}

function toWebHeaders(request: FastifyRequest): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    // The body is re-serialised from the parsed value: its length and type are ours to set.
    if (value === undefined || name === 'content-length' || name === 'content-type') continue;
    for (const item of Array.isArray(value) ? value : [value]) headers.append(name, item);
  }
  // better-auth reads the client address from x-forwarded-for; give it the one Fastify trusts.
  headers.set('x-forwarded-for', request.ip);
  return headers;
}

/**
 * The session token lives in the httpOnly cookie only: script on the page (an XSS, an extension)
 * must not be able to read it from a JSON body. better-auth puts it in sign-in and sign-up
 * answers (`token`), get-session (`session.token`) and list-sessions (`[].token`).
 */
export function withoutSessionTokens(value: unknown, depth = 0): unknown {
  if (depth > 8 || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((item) => withoutSessionTokens(item, depth + 1));
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key]) => key !== 'token')
      .map(([key, item]) => [key, withoutSessionTokens(item, depth + 1)]),
  );
}

async function forwardToAuth(
  auth: Auth,
  request: FastifyRequest,
  reply: FastifyReply,
  body: unknown,
  fieldErrors?: Partial<Record<string, { field: string; key: TranslationKey }>>,
) {
  const pathname = new URL(request.url, 'http://internal').pathname;
  const headers = toWebHeaders(request);
  if (request.method === 'POST') headers.set('content-type', 'application/json');
  const response = await auth.handler(
    // Query strings are not forwarded: none of these endpoints needs one from the browser.
    new Request(new URL(pathname, auth.options.baseURL), {
      method: request.method,
      headers,
      ...(request.method === 'POST' && { body: JSON.stringify(body ?? {}) }),
    }),
  );
  const text = response.body ? await response.text() : '';
  if (response.status >= 500) {
    // Input was validated above: a 5xx here is ours. The error handler logs it and answers a
    // bare 500 without better-auth's details.
    throw new Error(
      `better-auth answered ${response.status} to ${pathname}: ${text.slice(0, 300)}`,
    );
  }
  void reply.status(response.status);
  response.headers.forEach((value, name) => {
    if (name !== 'set-cookie' && name !== 'content-length') void reply.header(name, value);
  });
  const cookies = response.headers.getSetCookie();
  if (cookies.length > 0) void reply.header('set-cookie', cookies);
  if (text === '' || !(response.headers.get('content-type') ?? '').includes('application/json')) {
    // Not the JSON the route describes: passed on as better-auth wrote it (no schema encoding).
    return text === '' ? reply.serializer(JSON.stringify).send(null) : reply.send(text);
  }
  const json: unknown = JSON.parse(text);
  if (response.status >= 400) {
    return reply.send(toApiErrorBody(response.status, json, fieldErrors));
  }
  // Sent as text: better-auth's reply, less its tokens, passes as it is (its route schema
  // describes it; the auth tests check real replies against that description).
  return reply.send(JSON.stringify(withoutSessionTokens(json)));
}

/**
 * Mounts the better-auth endpoints Cadence uses under /api/auth, each body validated with its
 * shared schema, and sign-in and sign-up attempts rate-limited per client IP (separately).
 */
export async function authRoutes(
  app: FastifyInstance,
  {
    auth,
    loginRateLimitPerMinute,
    signUpRateLimitPerHour,
    passwordResetRateLimitPerHour,
  }: {
    auth: Auth;
    loginRateLimitPerMinute: number;
    signUpRateLimitPerHour: number;
    passwordResetRateLimitPerHour: number;
  },
) {
  await app.register(rateLimit, { global: false });
  const rateLimits = {
    'sign-in': {
      max: loginRateLimitPerMinute,
      timeWindow: 60_000,
      errorResponseBuilder: (_request: FastifyRequest, context: { after: string }) =>
        new AppError('rate_limited', `Too many login attempts, retry in ${context.after}`),
    },
    // Unlimited sign-ups let one client mint accounts by the thousand (and probe which emails
    // are registered). A person signs up once: an hourly budget, counted apart from logins,
    // holds a script to a few hundred a day without troubling a shared office connection.
    'sign-up': {
      max: signUpRateLimitPerHour,
      timeWindow: 60 * 60_000,
      errorResponseBuilder: (_request: FastifyRequest, context: { after: string }) =>
        new AppError('rate_limited', `Too many sign-ups, retry in ${context.after}`, {
          _: 'auth.errors.tooManySignUps',
        }),
    },
    // Each request may send a mail, each reset attempt tries a token: a person needs a few an
    // hour. Counted per route (asking, resetting) and per client IP; the mails one address can
    // receive have their own limit (modules/users/password-reset-mail.ts).
    'password-reset': {
      max: passwordResetRateLimitPerHour,
      timeWindow: 60 * 60_000,
      errorResponseBuilder: (_request: FastifyRequest, context: { after: string }) =>
        new AppError(
          'rate_limited',
          `Too many password reset requests, retry in ${context.after}`,
          {
            _: 'auth.errors.tooManyResets',
          },
        ),
    },
  };

  for (const endpoint of endpoints) {
    app.route({
      method: endpoint.method,
      url: `/api/auth/${endpoint.path}`,
      // Validated by the shared schema (openapi/plugin.ts) before the handler: a refusal is a
      // 400 with a translation key per field, and better-auth never sees the body.
      schema: {
        tags: ['auth'],
        summary: endpoint.summary,
        ...(endpoint.body && { body: endpoint.body }),
        response: { 200: endpoint.reply },
      },
      ...(endpoint.limit && { config: { rateLimit: rateLimits[endpoint.limit] } }),
      handler: async (request, reply) => {
        const body =
          endpoint.body && endpoint.prepare
            ? await endpoint.prepare(auth, request, request.body)
            : request.body;
        return forwardToAuth(
          auth,
          request,
          reply,
          endpoint.body ? body : undefined,
          endpoint.fieldErrors,
        );
      },
    });
  }
}
