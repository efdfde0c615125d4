import { uuidParams } from '@cadence/shared/schemas/params';
import {
  calendarQuerySchema,
  calendarSchema,
  editPostSchema,
  historyQuerySchema,
  postingSlotsBodySchema,
  postingSlotsSchema,
  postPageSchema,
  queueQuerySchema,
  reschedulePostSchema,
  schedulePreviewBodySchema,
  schedulePreviewSchema,
} from '@cadence/shared/schemas/planning';
import {
  addToQueueSchema,
  createScheduleSchema,
  postSchema,
} from '@cadence/shared/schemas/schedule';
import type { FastifyInstance, preValidationAsyncHookHandler } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Notification } from '@cadence/shared/schemas/notification';
import { z } from 'zod';
import { signedIn, userOf } from '../../auth/route-guards.ts';
import { AppError } from '../../lib/app-error.ts';
import { requestKeyOf, sendMade } from '../../lib/idempotency.ts';
import { whenClosed } from '../../lib/when-closed.ts';
import { streamPostEvents, type PostStream } from './post-events.ts';
import type { PostListingService } from './listing-service.ts';
import type { ScheduleService } from './service.ts';

const createReply = z.object({ scheduleId: z.string(), posts: z.array(postSchema) });

/**
 * Post ids are UUIDs: anything else names no post, so it is a 404 (not the 400 of a params schema),
 * and it comes before the body's 400, as a route that cannot exist would.
 */
const existingPostId: preValidationAsyncHookHandler = async (request) => {
  if (!uuidParams.safeParse(request.params).success) {
    throw new AppError('not_found', 'No such post');
  }
};

/** Account ids are UUIDs too: anything else names no account (404 before a body's 400). */
const existingAccountId: preValidationAsyncHookHandler = async (request) => {
  if (!uuidParams.safeParse(request.params).success) {
    throw new AppError('not_found', 'No such account');
  }
};

/**
 * Live streams one person may hold open at once in this process: one per tab is plenty, and each
 * costs a database query a second, so a script opening thousands must not slow everyone else.
 */
export const MAX_EVENT_STREAMS_PER_USER = 8;

const idempotencyNote =
  'An `Idempotency-Key` header (16–128 of A–Z, a–z, 0–9, - and _) makes a retry safe: the same key with the same body answers the schedule the first request made, with `Idempotent-Replayed: true`, and makes nothing; the same key with another body is a 409.';

export interface ScheduleRoutesOptions {
  schedules: ScheduleService;
  listing: PostListingService;
  /** New notifications, pushed on the same stream as `notification` events. */
  notificationsSince?: (userId: string, since: Date) => Promise<Notification[]>;
  /** Live-stream poll period (tests shorten it). */
  eventsPollMs?: number;
  /** How often an open stream re-checks its session (tests shorten it). */
  eventsSessionCheckMs?: number;
}

/** POST /api/schedules, the post lists (queue, history, calendar), post actions, and the live stream of post changes. */
export async function scheduleRoutes(fastify: FastifyInstance, options: ScheduleRoutesOptions) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const preValidation = signedIn(fastify);
  const postAction = [preValidation, existingPostId];
  const tags = ['posts'];
  const { schedules, listing, notificationsSince } = options;
  const streams = new Set<PostStream>();
  const openStreamsByUser = new Map<string, number>();
  // Open streams would keep app.close() waiting for their sockets: end them first.
  app.addHook('preClose', async () => {
    for (const stream of streams) stream.close();
  });

  app.post(
    '/api/schedules',
    {
      preValidation,
      schema: {
        tags,
        description: idempotencyNote,
        body: createScheduleSchema,
        response: { 201: createReply },
      },
    },
    async (request, reply) =>
      sendMade(
        reply,
        await schedules.create(userOf(request).id, request.body, requestKeyOf(request)),
      ),
  );

  app.post(
    '/api/schedules/queue',
    {
      preValidation,
      schema: {
        tags,
        description:
          "'Add to queue': each video in the account's next free posting slot (user's zone; days at the daily cap skipped). " +
          idempotencyNote,
        body: addToQueueSchema,
        response: { 201: createReply },
      },
    },
    async (request, reply) =>
      sendMade(
        reply,
        await schedules.addToQueue(userOf(request).id, request.body, requestKeyOf(request)),
      ),
  );

  const onAccount = [preValidation, existingAccountId];
  app.get(
    '/api/accounts/:id/slots',
    {
      preValidation: onAccount,
      schema: {
        tags: ['slots'],
        description: "The account's weekly posting slots and the next free ones.",
        params: uuidParams,
        response: { 200: postingSlotsSchema },
      },
    },
    async (request) => schedules.getSlots(userOf(request).id, request.params.id),
  );

  app.put(
    '/api/accounts/:id/slots',
    {
      preValidation: onAccount,
      schema: {
        tags: ['slots'],
        description: "Replaces the account's weekly posting slots (ISO weekday 1-7, 'HH:MM').",
        params: uuidParams,
        body: postingSlotsBodySchema,
        response: { 200: postingSlotsSchema },
      },
    },
    async (request) =>
      schedules.setSlots(userOf(request).id, request.params.id, request.body.slots),
  );

  app.post(
    '/api/schedules/preview',
    {
      preValidation,
      schema: {
        tags,
        description:
          "Every slot the form's timing would give, each day's count against the daily cap, and where posts beyond it could go. Creates nothing.",
        body: schedulePreviewBodySchema,
        response: { 200: schedulePreviewSchema },
      },
    },
    async (request) => schedules.preview(userOf(request).id, request.body),
  );

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

  app.get(
    '/api/posts/:id',
    {
      preValidation: postAction,
      schema: { tags, params: uuidParams, response: { 200: postSchema } },
    },
    async (request) => schedules.get(userOf(request).id, request.params.id),
  );

  app.post(
    '/api/posts/:id/cancel',
    {
      preValidation: postAction,
      schema: { tags, params: uuidParams, response: { 200: postSchema } },
    },
    async (request) => schedules.cancel(userOf(request).id, request.params.id),
  );

  app.post(
    '/api/posts/:id/reschedule',
    {
      preValidation: postAction,
      schema: {
        tags,
        description:
          'A new time for a pending post, or a cancelled or failed one (pending again, as a new TikTok post).',
        params: uuidParams,
        body: reschedulePostSchema,
        response: { 200: postSchema },
      },
    },
    async (request) => {
      const { id } = request.params;
      return schedules.reschedule(userOf(request).id, id, new Date(request.body.dueAt));
    },
  );

  app.patch(
    '/api/posts/:id',
    {
      preValidation: postAction,
      schema: {
        tags,
        description:
          'Caption, privacy, interactions and time of a pending post; 409 once it started publishing.',
        params: uuidParams,
        body: editPostSchema,
        response: { 200: postSchema },
      },
    },
    async (request) => schedules.edit(userOf(request).id, request.params.id, request.body),
  );

  app.post(
    '/api/posts/:id/restore',
    {
      preValidation: postAction,
      schema: {
        tags,
        description: 'A cancelled post back to pending, if its time is still ahead.',
        params: uuidParams,
        response: { 200: postSchema },
      },
    },
    async (request) => schedules.restore(userOf(request).id, request.params.id),
  );

  app.post(
    '/api/posts/:id/retry',
    {
      preValidation: postAction,
      schema: { tags, params: uuidParams, response: { 200: postSchema } },
    },
    async (request) => schedules.retry(userOf(request).id, request.params.id),
  );

  const events = {
    description:
      'Server-sent events: `post` events carry a changed post (the postSchema), `notification` events a new notification (the notificationSchema)',
    content: { 'text/event-stream': { schema: z.string() } },
  };
  app.get(
    '/api/posts/events',
    { schema: { tags, response: { 200: events } } },
    async (request, reply) => {
      const user = await app.requireUser(request);
      // HEAD (which Fastify serves with this handler) gets GET's headers and no stream: a hijacked
      // HEAD reply never sends its headers (Node holds them for a body it will not write), so the
      // client would wait for the idle timeout, holding one of the user's stream slots.
      if (request.method === 'HEAD') {
        return reply
          .type('text/event-stream; charset=utf-8')
          .header('cache-control', 'no-cache, no-transform')
          .send('');
      }
      const open = openStreamsByUser.get(user.id) ?? 0;
      if (open >= MAX_EVENT_STREAMS_PER_USER) {
        throw new AppError('rate_limited', 'Too many live streams open');
      }
      openStreamsByUser.set(user.id, open + 1);
      // Counted from here, so given back whatever happens next, even if the tab already left.
      whenClosed(reply.raw, () => {
        const left = (openStreamsByUser.get(user.id) ?? 1) - 1;
        if (left > 0) openStreamsByUser.set(user.id, left);
        else openStreamsByUser.delete(user.id);
      });
      reply.hijack();
      const stream = streamPostEvents(reply.raw, {
        changedSince: (since) => schedules.changedSince(user.id, since),
        ...(notificationsSince && {
          notificationsSince: (since: Date) => notificationsSince(user.id, since),
        }),
        ...(options.eventsPollMs !== undefined && { pollMs: options.eventsPollMs }),
        onError: (error) => request.log.warn({ err: error }, 'post stream poll failed'),
        sessionEnded: async () => {
          try {
            return (await app.requireUser(request)).id !== user.id;
          } catch (error) {
            if (error instanceof AppError && error.code === 'unauthenticated') return true;
            throw error;
          }
        },
        ...(options.eventsSessionCheckMs !== undefined && {
          sessionCheckMs: options.eventsSessionCheckMs,
        }),
      });
      streams.add(stream);
      whenClosed(reply.raw, () => streams.delete(stream));
    },
  );
}
