import {
  changeEmailSchema,
  confirmEmailChangeSchema,
  meSchema,
  updateMeSchema,
  type Me,
} from '@cadence/shared/schemas/user';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Auth } from '../../auth/auth.ts';
import { checkPasswordAgain } from '../../auth/password-check.ts';
import { signedIn, userOf } from '../../auth/route-guards.ts';
import { AppError } from '../../lib/app-error.ts';
import { noBody } from '../../openapi/plugin.ts';
import type { EmailChangeService } from './email-change.ts';
import type { EmailVerification } from './email-verification.ts';
import type { UserRepository } from './repository.ts';

interface UserRoutesOptions {
  users: UserRepository;
  auth: Auth;
  emailChange: EmailChangeService;
  emailVerification: EmailVerification;
}

const tags = ['me'];

async function loadMe(users: UserRepository, id: string): Promise<Me> {
  const [row, pendingEmail] = await Promise.all([users.findById(id), users.pendingEmailOf(id)]);
  if (!row) throw new AppError('unauthenticated', 'Sign in first');
  return { ...row, pendingEmail, createdAt: row.createdAt.toISOString() };
}

/** GET and PATCH /api/me: who I am, my language and my time zone. */
function registerProfileRoutes(fastify: FastifyInstance, users: UserRepository) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const preValidation = signedIn(fastify);

  app.get('/api/me', { preValidation, schema: { tags, response: { 200: meSchema } } }, (request) =>
    loadMe(users, userOf(request).id),
  );

  app.patch(
    '/api/me',
    {
      preValidation,
      schema: {
        tags,
        description: 'Changes my language and/or my time zone (an IANA zone, e.g. Europe/Paris).',
        body: updateMeSchema,
        response: { 200: meSchema },
      },
    },
    async (request) => {
      const { id } = userOf(request);
      const { preferredLanguage, timeZone } = request.body;
      if (preferredLanguage !== undefined) await users.setLanguage(id, preferredLanguage);
      if (timeZone !== undefined) await users.setTimeZone(id, timeZone);
      return loadMe(users, id);
    },
  );
}

/** My address: changing it (a link to the new one) and confirming it (REQUIRE_EMAIL_VERIFICATION). */
function registerEmailRoutes(fastify: FastifyInstance, options: UserRoutesOptions) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const preValidation = signedIn(fastify);
  const { users, auth, emailChange, emailVerification } = options;

  app.post(
    '/api/me/email',
    {
      preValidation,
      schema: {
        tags,
        description:
          'Asks to change my address: a link goes to the new one (the same answer whether or not it is taken).',
        body: changeEmailSchema,
        response: { 200: meSchema },
      },
    },
    async (request) => {
      const { id } = userOf(request);
      await checkPasswordAgain(auth, request, request.body.password);
      await emailChange.request(id, request.body.newEmail);
      return loadMe(users, id);
    },
  );

  // The link's token is the proof: it works from any browser, signed in or not.
  app.post(
    '/api/me/email/confirm',
    {
      schema: {
        tags,
        description: 'Opens an email change link: the new address becomes the account’s.',
        body: confirmEmailChangeSchema,
        response: { 200: z.object({ email: z.string() }) },
      },
    },
    (request) => emailChange.confirm(request.body.token),
  );

  app.post(
    '/api/me/verification-email',
    {
      preValidation,
      schema: {
        tags,
        description: 'Sends my address confirmation link again (a few per hour).',
        response: { 204: noBody('Sent (or already verified)') },
      },
    },
    async (request, reply) => {
      await emailVerification.resend(userOf(request).id);
      return reply.status(204).send();
    },
  );

  app.post(
    '/api/me/verify-email',
    {
      schema: {
        tags,
        description: 'Opens an address confirmation link (REQUIRE_EMAIL_VERIFICATION).',
        body: confirmEmailChangeSchema,
        response: { 204: noBody('Verified') },
      },
    },
    async (request, reply) => {
      await emailVerification.confirm(request.body.token);
      return reply.status(204).send();
    },
  );
}

export async function userRoutes(fastify: FastifyInstance, options: UserRoutesOptions) {
  registerProfileRoutes(fastify, options.users);
  registerEmailRoutes(fastify, options);
}
