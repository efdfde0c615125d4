import { isAPIError } from 'better-auth/api';
import type { FastifyRequest } from 'fastify';
import { AppError } from '../lib/app-error.ts';
import type { Auth } from './auth.ts';

/**
 * Wrong passwords one person may type in a window where Cadence asks for theirs again (changing
 * it, changing the address, deleting the account); the next check is refused until the oldest
 * failure leaves the window. Counted per person, not per connection: whoever holds a signed-in
 * session (a stolen cookie, an unlocked device) must not be able to guess the password at request
 * speed, from however many addresses. The log-in form has its own limit per connection.
 */
export const PASSWORD_FAILURES_ALLOWED = 5;
export const PASSWORD_FAILURE_WINDOW_MS = 15 * 60_000;

/** Each app's failures, by user id (times in ms). Kept per app: tests run several in a process. */
const failuresByAuth = new WeakMap<Auth, Map<string, number[]>>();

/**
 * Asks for the signed-in person's password again before a grave change. A wrong one is a
 * translated 400 on `field`; past PASSWORD_FAILURES_ALLOWED wrong ones, a translated 429 whatever
 * the password, until the window has passed.
 */
export async function checkPasswordAgain(
  auth: Auth,
  request: FastifyRequest,
  password: string,
  field = 'password',
): Promise<void> {
  const headers = new Headers();
  if (request.headers.cookie) headers.set('cookie', request.headers.cookie);
  const session = await auth.api.getSession({ headers });
  if (session === null) throw new AppError('unauthenticated', 'Sign in first');
  const failures = failuresByAuth.get(auth) ?? new Map<string, number[]>();
  failuresByAuth.set(auth, failures);
  const now = Date.now();
  const recent = (failures.get(session.user.id) ?? []).filter(
    (at) => at > now - PASSWORD_FAILURE_WINDOW_MS,
  );
  if (recent.length >= PASSWORD_FAILURES_ALLOWED) {
    failures.set(session.user.id, recent);
    throw new AppError('rate_limited', 'Too many wrong passwords', {
      [field]: 'auth.errors.tooManyPasswordAttempts',
    });
  }
  try {
    await auth.api.verifyPassword({ body: { password }, headers });
  } catch (error) {
    if (isAPIError(error) && error.statusCode < 500) {
      failures.set(session.user.id, [...recent, now]);
      throw new AppError('validation_failed', 'Wrong password', {
        [field]: 'auth.errors.wrongCurrentPassword',
      });
    }
    throw error;
  }
  failures.delete(session.user.id);
}
