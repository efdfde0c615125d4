import {
  notificationListSchema,
  notificationSettingsSchema,
  unsubscribeQuerySchema,
  unsubscribeReplySchema,
} from '@cadence/shared/schemas/notification';
import formbody from '@fastify/formbody';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { signedIn, userOf } from '../../auth/route-guards.ts';
import { noBody } from '../../openapi/plugin.ts';
import type { NotificationService } from './service.ts';

/** The bell's list, marking read, email choices, and the one-click unsubscribe of emails. */
export async function notificationRoutes(
  fastify: FastifyInstance,
  { notifications }: { notifications: NotificationService },
) {
  // Only here: RFC 8058 one-click unsubscribes arrive form-encoded; no other route takes forms.
  await fastify.register(formbody);
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const preValidation = signedIn(fastify);
  const tags = ['notifications'];

  app.get(
    '/api/notifications',
    {
      preValidation,
      schema: {
        tags,
        description: 'My latest 50 notifications, newest first, and how many are unread.',
        response: { 200: notificationListSchema },
      },
    },
    async (request) => notifications.list(userOf(request).id),
  );

  app.post(
    '/api/notifications/read',
    {
      preValidation,
      schema: {
        tags,
        description: 'Marks all my notifications read (the bell panel was opened).',
        response: { 204: noBody('Marked read') },
      },
    },
    async (request, reply) => {
      await notifications.markAllRead(userOf(request).id);
      return reply.status(204).send();
    },
  );

  app.get(
    '/api/notifications/settings',
    { preValidation, schema: { tags, response: { 200: notificationSettingsSchema } } },
    async (request) => notifications.settings(userOf(request).id),
  );

  app.put(
    '/api/notifications/settings',
    {
      preValidation,
      schema: {
        tags,
        body: notificationSettingsSchema,
        response: { 200: notificationSettingsSchema },
      },
    },
    async (request) => notifications.saveSettings(userOf(request).id, request.body),
  );

  // No session: the link comes from an email, and RFC 8058 mail clients POST to it from their
  // servers (body `List-Unsubscribe=One-Click`, form-encoded, which is all it can hold).
  app.post(
    '/api/notifications/unsubscribe',
    {
      schema: {
        tags,
        description:
          'One-click unsubscribe (RFC 8058): the token of an email link turns off that type of email.',
        querystring: unsubscribeQuerySchema,
        response: { 200: unsubscribeReplySchema },
      },
    },
    async (request) => notifications.unsubscribe(request.query.token),
  );
}
