import type { FastifyRequest } from 'fastify';
import { AppError } from '../lib/app-error.ts';
import type { Auth } from './auth.ts';

export interface SessionUser {
  id: string;
  email: string;
  name: string;
}

/** Reads the session cookie through better-auth; null when signed out or expired. */
export async function getSessionUser(
  auth: Auth,
  request: FastifyRequest,
): Promise<SessionUser | null> {
  const headers = new Headers();
  if (request.headers.cookie) headers.set('cookie', request.headers.cookie);
  const session = await auth.api.getSession({ headers });
  if (!session) return null;
  return { id: session.user.id, email: session.user.email, name: session.user.name };
}

export async function requireSessionUser(
  auth: Auth,
  request: FastifyRequest,
): Promise<SessionUser> {
  const user = await getSessionUser(auth, request);
  if (!user) throw new AppError('unauthenticated', 'Sign in first');
  return user;
}
