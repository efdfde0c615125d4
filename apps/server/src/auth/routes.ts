import rateLimit from '@fastify/rate-limit';
import { languageSchema } from '@cadence/shared/schemas/user';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { AppError } from '../lib/app-error.ts';
import type { Auth } from './auth.ts';

const signUpBodySchema = z.object({
  name: z.string().trim().min(1).max(100),
  email: z.string().trim().max(254),
  password: z.string().max(256),
  preferredLanguage: languageSchema.optional(),
});

function toWebHeaders(request: FastifyRequest): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    if (value === undefined) continue;
    for (const item of Array.isArray(value) ? value : [value]) headers.append(name, item);
  }
  // better-auth reads the client address from x-forwarded-for; give it the one Fastify trusts.
  headers.set('x-forwarded-for', request.ip);
  return headers;
}

async function forwardToAuth(auth: Auth, request: FastifyRequest, reply: FastifyReply) {
  const url = new URL(request.url, 'http://internal');
  const hasBody = request.method !== 'GET' && request.method !== 'HEAD' && request.body != null;
  const response = await auth.handler(
    new Request(new URL(url.pathname + url.search, auth.options.baseURL), {
      method: request.method,
      headers: toWebHeaders(request),
      ...(hasBody && { body: JSON.stringify(request.body) }),
    }),
  );
  void reply.status(response.status);
  response.headers.forEach((value, name) => {
    if (name !== 'set-cookie' && name !== 'content-length') void reply.header(name, value);
  });
  const cookies = response.headers.getSetCookie();
  if (cookies.length > 0) void reply.header('set-cookie', cookies);
  return reply.send(response.body ? await response.text() : null);
}

/** Mounts better-auth under /api/auth, with login attempts rate-limited per client. */
export async function authRoutes(
  app: FastifyInstance,
  { auth, loginRateLimitPerMinute }: { auth: Auth; loginRateLimitPerMinute: number },
) {
  await app.register(rateLimit, { global: false });

  app.post(
    '/api/auth/sign-in/email',
    {
      config: {
        rateLimit: {
          max: loginRateLimitPerMinute,
          timeWindow: 60_000,
          errorResponseBuilder: (_request, context) =>
            new AppError('rate_limited', `Too many login attempts, retry in ${context.after}`),
        },
      },
    },
    (request, reply) => forwardToAuth(auth, request, reply),
  );

  app.post('/api/auth/sign-up/email', async (request, reply) => {
    const parsed = signUpBodySchema.safeParse(request.body);
    if (!parsed.success) {
      throw new AppError('validation_failed', 'Missing or invalid fields', {
        _: 'auth.errors.fillAllFields',
      });
    }
    return forwardToAuth(auth, request, reply);
  });

  app.route({
    method: ['GET', 'POST'],
    url: '/api/auth/*',
    handler: (request, reply) => forwardToAuth(auth, request, reply),
  });
}
