import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { AppError } from '../../lib/app-error.ts';
import type { UserRepository } from '../users/repository.ts';

const setProSchema = z.object({ email: z.email(), isPro: z.boolean() }).strict();

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * Used by `npm run admin` while the server runs: PGlite lets only one process open the database,
 * so the CLI asks the server. Loopback only, and the token lives in DATA_DIR (0600).
 */
export async function adminRoutes(
  app: FastifyInstance,
  { users, adminToken }: { users: UserRepository; adminToken: string },
) {
  app.post('/api/admin/pro', async (request) => {
    const token = request.headers['x-admin-token'];
    const loopback = ['127.0.0.1', '::1', '::ffff:127.0.0.1'].includes(
      request.socket.remoteAddress ?? '',
    );
    if (!loopback || typeof token !== 'string' || !sameSecret(token, adminToken)) {
      throw new AppError('forbidden', 'Admin token required');
    }
    const body = setProSchema.parse(request.body);
    const found = await users.setProByEmail(body.email, body.isPro);
    if (!found) throw new AppError('not_found', `No user with email ${body.email}`);
    return { email: body.email, isPro: body.isPro };
  });
}
