import type { FastifyInstance, FastifyRequest, preValidationAsyncHookHandler } from 'fastify';
import { AppError } from '../lib/app-error.ts';
import type { SessionUser } from './session.ts';

/**
 * Routes validate their input from their declared schemas, which Fastify runs before the handler.
 * A signed-out request must still hear 401 (and a non-Pro user 'Pro') whatever it sent, so the
 * session is looked up in a preValidation hook, once, and the handler reads it from here.
 */
const users = new WeakMap<FastifyRequest, SessionUser>();

/** preValidation hook: 401 unless signed in; remembers the user for `userOf`. */
export function signedIn(app: FastifyInstance): preValidationAsyncHookHandler {
  return async (request) => {
    users.set(request, await app.requireUser(request));
  };
}

/** preValidation hook (after `signedIn`): the check a feature runs on the user before anything. */
export function userCheck(check: (userId: string) => Promise<void>): preValidationAsyncHookHandler {
  return async (request) => check(userOf(request).id);
}

/**
 * The signed-in user of a request: the one `signedIn` found, or looked up now on a route without
 * that hook (better-auth's, under /api/auth); 401 when signed out.
 */
export async function requestUser(request: FastifyRequest): Promise<SessionUser> {
  return users.get(request) ?? (await request.server.requireUser(request));
}

/** The user `signedIn` found for this request. */
export function userOf(request: FastifyRequest): SessionUser {
  const user = users.get(request);
  // Only a route that forgot its `signedIn` hook gets here: still no access.
  if (!user) throw new AppError('unauthenticated', 'Sign in first');
  return user;
}
