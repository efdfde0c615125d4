import { betterAuth } from 'better-auth';
import { isAPIError } from 'better-auth/api';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { Language } from '@cadence/shared/errors';
import { maxPasswordLength, minPasswordLength } from '@cadence/shared/schemas/auth';
import { languageSchema } from '@cadence/shared/schemas/user';
import { z } from 'zod';
import type { Database } from '../db/schema.ts';

export const SESSION_LIFETIME_SECONDS = 7 * 24 * 60 * 60; // the original product's cookie lifetime

/** A password reset link works once, for this long. */
export const PASSWORD_RESET_LINK_SECONDS = 60 * 60;

/** Whom a reset link goes to, and the single-use token it carries. */
export interface PasswordResetRequest {
  user: { id: string; email: string; name: string; preferredLanguage: Language };
  token: string;
}

/** REQUIRE_EMAIL_VERIFICATION: a confirmation link lasts this long (better-auth's signed token). */
export const EMAIL_VERIFICATION_LINK_SECONDS = 24 * 60 * 60;

/** Whom a confirmation link goes to, and its token (better-auth's, signed and expiring). */
export interface EmailVerificationRequest {
  user: { id: string; email: string; name: string; preferredLanguage: Language };
  token: string;
}

export interface AuthOptions {
  db: Kysely<Database>;
  secret: string;
  publicUrl: string;
  logger: FastifyBaseLogger;
  /** Stores and queues the reset mail (modules/users/password-reset-mail.ts). */
  sendPasswordReset: (request: PasswordResetRequest) => Promise<void>;
  /** REQUIRE_EMAIL_VERIFICATION: mail a confirmation link at sign-up. */
  requireEmailVerification: boolean;
  /** Stores and queues the confirmation mail (modules/users/email-verification.ts). */
  sendEmailVerification: (request: EmailVerificationRequest) => Promise<void>;
}

const resetUserSchema = z.object({
  id: z.string(),
  email: z.string(),
  name: z.string(),
  preferredLanguage: languageSchema.catch('fr'),
});

export function createAuth({
  db,
  secret,
  publicUrl,
  logger,
  sendPasswordReset,
  requireEmailVerification,
  sendEmailVerification,
}: AuthOptions) {
  /** better-auth's callbacks get its user record: the fields our mails need, checked. */
  function mailUser(user: unknown, purpose: string) {
    const parsed = resetUserSchema.safeParse(user);
    if (!parsed.success) logger.error(`${purpose}: unexpected user record`);
    return parsed.success ? parsed.data : null;
  }

  return betterAuth({
    appName: 'Cadence',
    baseURL: publicUrl,
    basePath: '/api/auth',
    secret,
    trustedOrigins: [publicUrl],
    database: { db, type: 'postgres' },
    emailAndPassword: {
      enabled: true,
      minPasswordLength,
      maxPasswordLength,
      autoSignIn: true,
      resetPasswordTokenExpiresIn: PASSWORD_RESET_LINK_SECONDS,
      // Whoever had the old password (or a stolen cookie) is signed out with it.
      revokeSessionsOnPasswordReset: true,
      // The answer must not depend on the address: the mail is queued after it, in the background,
      // so neither the time taken nor a failure (database, queue) tells that the account exists.
      sendResetPassword: async ({ user, token }) => {
        const parsed = mailUser(user, 'password reset');
        if (!parsed) return;
        setImmediate(() => {
          sendPasswordReset({ user: parsed, token }).catch((error: unknown) =>
            logger.error({ err: error, userId: user.id }, 'password reset mail not queued'),
          );
        });
      },
    },
    // The confirmation link of REQUIRE_EMAIL_VERIFICATION: sent at sign-up (and on request, see
    // modules/users/email-verification.ts); sign-in is never refused for it, only publishing.
    emailVerification: {
      sendOnSignUp: requireEmailVerification,
      expiresIn: EMAIL_VERIFICATION_LINK_SECONDS,
      sendVerificationEmail: async ({ user, token }) => {
        const parsed = mailUser(user, 'email verification');
        if (!parsed) return;
        await sendEmailVerification({ user: parsed, token });
      },
    },
    // Reset links (and any later verification token) are stored as SHA-256 hashes: someone reading
    // the database cannot use a pending link. better-auth hashes the token again to look it up.
    verification: { storeIdentifier: 'hashed' },
    session: {
      expiresIn: SESSION_LIFETIME_SECONDS,
      updateAge: 24 * 60 * 60,
      // No cookie cache: Pro and language are read from the database on every request.
      cookieCache: { enabled: false },
    },
    user: {
      additionalFields: {
        isPro: { type: 'boolean', defaultValue: false, input: false },
        preferredLanguage: { type: 'string', defaultValue: 'fr', input: true },
        // Validated by signUpSchema (an IANA zone Intl knows) before better-auth sees it.
        timeZone: { type: 'string', required: false, input: true },
      },
    },
    // Login attempts are limited by the HTTP layer (see auth/routes.ts), per client IP.
    rateLimit: { enabled: false },
    advanced: {
      cookiePrefix: 'cadence',
      useSecureCookies: publicUrl.startsWith('https://'),
      defaultCookieAttributes: { httpOnly: true, sameSite: 'lax', path: '/' },
    },
    // better-auth's default prints every refusal (a wrong password, a taken email) as an error on
    // the console. A client's mistake is answered with its 4xx and logged at info; only what an
    // operator must look at (a 5xx) goes to the log at error level.
    onAPIError: {
      onError: (error) => {
        if (isAPIError(error) && error.statusCode < 500) {
          logger.info(
            { status: error.statusCode, code: error.body?.code },
            `auth: ${error.message}`,
          );
        } else {
          logger.error({ err: error }, 'auth: request failed');
        }
      },
    },
    telemetry: { enabled: false },
    // Expected outcomes (wrong password, short password) are 4xx answers, not warnings.
    logger: {
      level: 'error',
      log: (level, message, ...args) => logger[level]({ args }, `auth: ${message}`),
    },
  });
}

export type Auth = ReturnType<typeof createAuth>;
