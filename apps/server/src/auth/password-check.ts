import { isAPIError } from 'better-auth/api';
import type { FastifyRequest } from 'fastify';
import { AppError } from '../lib/app-error.ts';
import type { Auth } from './auth.ts';
import { requestUser } from './route-guards.ts';

/**
 * Wrong passwords one person may type in a window where Cadence asks for theirs again (changing
 * it, changing the address, deleting the account); the next check is refused until the oldest
 * failure leaves the window. Counted per person, not per connection: whoever holds a signed-in
 * session (a stolen cookie, an unlocked device) must not be able to guess the password at request
 * speed, from however many addresses. The log-in form has its own limit per connection.
 */
export const PASSWORD_FAILURES_ALLOWED = 5;
export const PASSWORD_FAILURE_WINDOW_MS = 15 * 60_000;

/**
 * Each app's failures, by user id (each one an object of its own, to take back by identity).
 * Kept per app: tests run several in a process.
 */
const failuresByAuth = new WeakMap<Auth, Map<string, { at: number }[]>>();

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
  // The routes under `signedIn` already looked the session up: not again.
  const userId = (await requestUser(request)).id;
  const headers = new Headers();
  if (request.headers.cookie) headers.set('cookie', request.headers.cookie);
  const failures = failuresByAuth.get(auth) ?? new Map<string, { at: number }[]>();
  failuresByAuth.set(auth, failures);
  const now = Date.now();
  const recent = (failures.get(userId) ?? []).filter(
    (failure) => failure.at > now - PASSWORD_FAILURE_WINDOW_MS,
  );
  if (recent.length >= PASSWORD_FAILURES_ALLOWED) {
    failures.set(userId, recent);
    throw new AppError('rate_limited', 'Too many wrong passwords', {
      [field]: 'auth.errors.tooManyPasswordAttempts',
    });
  }
  // Counted as a failure before the check, in the same turn of the event loop as the count
  // above: guesses sent all at once each see the ones before them, so no more than
  // PASSWORD_FAILURES_ALLOWED are ever checked. Taken back if the password was right.
  const attempt = { at: now };
  failures.set(userId, [...recent, attempt]);
  try {
    await auth.api.verifyPassword({ body: { password }, headers });
  } catch (error) {
    if (isAPIError(error) && error.statusCode < 500) {
      throw new AppError('validation_failed', 'Wrong password', {
        [field]: 'auth.errors.wrongCurrentPassword',
      });
    }
    // Not a wrong password: no failure of the person's.
    failures.set(
      userId,
      (failures.get(userId) ?? []).filter((failure) => failure !== attempt),
    );
    throw error;
  }
  failures.delete(userId);
}
