// An account's weekly posting slots, which 'Add to queue' fills.
import { uuidParams } from '@cadence/shared/schemas/params';
import { postingSlotsBodySchema, postingSlotsSchema } from '@cadence/shared/schemas/planning';
import type { FastifyInstance, preValidationAsyncHookHandler } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { signedIn, userOf } from '../../auth/route-guards.ts';
import { AppError } from '../../lib/app-error.ts';
import type { ScheduleService } from './service.ts';

/** Account ids are UUIDs: anything else names no account (404 before a body's 400). */
const existingAccountId: preValidationAsyncHookHandler = async (request) => {
  if (!uuidParams.safeParse(request.params).success) {
    throw new AppError('not_found', 'No such account');
  }
};

export function registerSlotRoutes(fastify: FastifyInstance, schedules: ScheduleService) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const onAccount = [signedIn(fastify), existingAccountId];

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
}
