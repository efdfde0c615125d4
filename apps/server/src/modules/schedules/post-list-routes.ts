// The post lists: the queue and the history a page at a time, and the calendar.
import {
  calendarQuerySchema,
  calendarSchema,
  historyQuerySchema,
  postPageSchema,
  queueQuerySchema,
} from '@cadence/shared/schemas/planning';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { signedIn, userOf } from '../../auth/route-guards.ts';
import type { PostListingService } from './listing-service.ts';

export function registerPostListRoutes(fastify: FastifyInstance, listing: PostListingService) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const preValidation = signedIn(fastify);
  const tags = ['posts'];

  app.get(
    '/api/posts/queue',
    {
      preValidation,
      schema: {
        tags,
        description:
          'Upcoming posts (pending, publishing), soonest first, a page at a time (keyset cursor).',
        querystring: queueQuerySchema,
        response: { 200: postPageSchema },
      },
    },
    async (request) => listing.page(userOf(request).id, 'queue', request.query),
  );

  app.get(
    '/api/posts/history',
    {
      preValidation,
      schema: {
        tags,
        description:
          'Past posts (completed, failed, cancelled), latest due time first, a page at a time.',
        querystring: historyQuerySchema,
        response: { 200: postPageSchema },
      },
    },
    async (request) => listing.page(userOf(request).id, 'history', request.query),
  );

  app.get(
    '/api/posts/calendar',
    {
      preValidation,
      schema: {
        tags,
        description:
          'Posts due in [from, to) (at most 42 days, `limit` posts) and per-account counts per day.',
        querystring: calendarQuerySchema,
        response: { 200: calendarSchema },
      },
    },
    async (request) => listing.calendar(userOf(request).id, request.query),
  );
}
