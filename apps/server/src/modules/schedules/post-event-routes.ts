// GET /api/posts/events: the live stream of the user's post changes (and new notifications).
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../../lib/app-error.ts';
import { whenClosed } from '../../lib/when-closed.ts';
import { streamPostEvents, type PostStream } from './post-events.ts';
import type { Notification } from '@cadence/shared/schemas/notification';
import type { ScheduleService } from './service.ts';

/**
 * Live streams one person may hold open at once in this process: one per tab is plenty, and each
 * costs a database query a second, so a script opening thousands must not slow everyone else.
 */
export const MAX_EVENT_STREAMS_PER_USER = 8;

const events = {
  description:
    'Server-sent events: `post` events carry a changed post (the postSchema), `notification` events a new notification (the notificationSchema)',
  content: { 'text/event-stream': { schema: z.string() } },
};

export interface PostEventRoutesOptions {
  schedules: Pick<ScheduleService, 'changedSince'>;
  /** New notifications, pushed on the same stream as `notification` events. */
  notificationsSince?: (userId: string, since: Date) => Promise<Notification[]>;
  /** Live-stream poll period (tests shorten it). */
  eventsPollMs?: number;
  /** How often an open stream re-checks its session (tests shorten it). */
  eventsSessionCheckMs?: number;
}

/** Counts each user's open streams, refusing one past MAX_EVENT_STREAMS_PER_USER. */
function createStreamCounter() {
  const openStreamsByUser = new Map<string, number>();
  return {
    open(userId: string): void {
      const open = openStreamsByUser.get(userId) ?? 0;
      if (open >= MAX_EVENT_STREAMS_PER_USER) {
        throw new AppError('rate_limited', 'Too many live streams open');
      }
      openStreamsByUser.set(userId, open + 1);
    },
    closed(userId: string): void {
      const left = (openStreamsByUser.get(userId) ?? 1) - 1;
      if (left > 0) openStreamsByUser.set(userId, left);
      else openStreamsByUser.delete(userId);
    },
  };
}

export function registerPostEventRoutes(fastify: FastifyInstance, options: PostEventRoutesOptions) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { schedules, notificationsSince } = options;
  const streams = new Set<PostStream>();
  const counter = createStreamCounter();
  // Open streams would keep app.close() waiting for their sockets: end them first.
  app.addHook('preClose', async () => {
    for (const stream of streams) stream.close();
  });

  app.get(
    '/api/posts/events',
    { schema: { tags: ['posts'], response: { 200: events } } },
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
      counter.open(user.id);
      // Counted from here, so given back whatever happens next, even if the tab already left.
      whenClosed(reply.raw, () => counter.closed(user.id));
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
