import { betterAuth } from 'better-auth';
import { isAPIError } from 'better-auth/api';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import { maxPasswordLength, minPasswordLength } from '@cadence/shared/schemas/auth';
import type { Database } from '../db/schema.ts';

export const SESSION_LIFETIME_SECONDS = 7 * 24 * 60 * 60; // the original product's cookie lifetime

export interface AuthOptions {
  db: Kysely<Database>;
  secret: string;
  publicUrl: string;
  logger: FastifyBaseLogger;
}

export function createAuth({ db, secret, publicUrl, logger }: AuthOptions) {
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
    },
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
