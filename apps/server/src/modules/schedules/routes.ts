import type { FastifyInstance } from 'fastify';
import type { PostListingService } from './listing-service.ts';
import { registerPostActionRoutes } from './post-action-routes.ts';
import { registerPostEventRoutes, type PostEventRoutesOptions } from './post-event-routes.ts';
import { registerPostListRoutes } from './post-list-routes.ts';
import { registerScheduleRoutes } from './schedule-routes.ts';
import type { ScheduleService } from './service.ts';
import { registerSlotRoutes } from './slot-routes.ts';

/** The services behind the routes, and the live stream's settings (PostEventRoutesOptions). */
export interface ScheduleRoutesOptions extends PostEventRoutesOptions {
  schedules: ScheduleService;
  listing: PostListingService;
}

/** POST /api/schedules, the post lists (queue, history, calendar), post actions, and the live stream of post changes. */
export async function scheduleRoutes(fastify: FastifyInstance, options: ScheduleRoutesOptions) {
  registerScheduleRoutes(fastify, options.schedules);
  registerSlotRoutes(fastify, options.schedules);
  registerPostListRoutes(fastify, options.listing);
  registerPostActionRoutes(fastify, options.schedules);
  registerPostEventRoutes(fastify, options);
}
