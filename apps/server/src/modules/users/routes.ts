import { meSchema, updateMeSchema, type Me } from '@cadence/shared/schemas/user';
import type { FastifyInstance } from 'fastify';
import { AppError } from '../../lib/app-error.ts';
import type { UserRepository } from './repository.ts';

export async function userRoutes(app: FastifyInstance, { users }: { users: UserRepository }) {
  async function loadMe(id: string): Promise<Me> {
    const row = await users.findById(id);
    if (!row) throw new AppError('unauthenticated', 'Sign in first');
    return meSchema.parse({ ...row, createdAt: row.createdAt.toISOString() });
  }

  app.get('/api/me', async (request) => {
    const user = await app.requireUser(request);
    return loadMe(user.id);
  });

  app.patch('/api/me', async (request) => {
    const user = await app.requireUser(request);
    const body = updateMeSchema.parse(request.body);
    await users.setLanguage(user.id, body.preferredLanguage);
    return loadMe(user.id);
  });
}
