import { isAPIError } from 'better-auth/api';
import type { FastifyRequest } from 'fastify';
import { AppError } from '../lib/app-error.ts';
import type { Auth } from './auth.ts';

/**
 * Asks for the signed-in person's password again before a grave change (deleting the account,
 * changing its address). A wrong one is a translated 400 on the `password` field.
 */
export async function checkPasswordAgain(
  auth: Auth,
  request: FastifyRequest,
  password: string,
): Promise<void> {
  const headers = new Headers();
  if (request.headers.cookie) headers.set('cookie', request.headers.cookie);
  try {
    await auth.api.verifyPassword({ body: { password }, headers });
  } catch (error) {
    if (isAPIError(error) && error.statusCode < 500) {
      throw new AppError('validation_failed', 'Wrong password', {
        password: 'auth.errors.wrongCurrentPassword',
      });
    }
    throw error;
  }
}
