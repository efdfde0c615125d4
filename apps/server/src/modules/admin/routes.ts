import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { AppError } from '../../lib/app-error.ts';
import type { UserRepository } from '../users/repository.ts';

export const setProSchema = z.object({ email: z.email(), isPro: z.boolean() }).strict();

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * What `npm run admin` asks a running server to do. Served only on the admin socket in DATA_DIR
 * (admin-socket.ts), never on the public HTTP port: a reverse proxy on the same machine makes every
 * visitor look like loopback. The token (secrets.json, 0600) is checked on top of the socket's
 * file permissions.
 */
export async function adminRoutes(
  app: FastifyInstance,
  { users, adminToken }: { users: UserRepository; adminToken: string },
) {
  app.post('/api/admin/pro', async (request) => {
    const token = request.headers['x-admin-token'];
    if (typeof token !== 'string' || !sameSecret(token, adminToken)) {
      throw new AppError('forbidden', 'Admin token required');
    }
    const body = setProSchema.parse(request.body);
    const found = await users.setProByEmail(body.email, body.isPro);
    if (!found) throw new AppError('not_found', `No user with email ${body.email}`);
    return { email: body.email, isPro: body.isPro };
  });
}
