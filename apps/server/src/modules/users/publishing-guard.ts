import type { FastifyInstance, preValidationAsyncHookHandler } from 'fastify';
import { userOf } from '../../auth/route-guards.ts';
import type { EmailVerification } from './email-verification.ts';

/**
 * The routes that put something on its way to TikTok: creating schedules (publishing now
 * included), queueing, scheduling a draft, retrying a failed post. Listed here, in one place, so
 * REQUIRE_EMAIL_VERIFICATION covers them all without each module knowing about it.
 */
export const PUBLISHING_ROUTES: ReadonlySet<string> = new Set([
  'POST /api/schedules',
  'POST /api/schedules/queue',
  'POST /api/drafts/:id/schedule',
  'POST /api/posts/:id/retry',
]);

/**
 * Appends the verified-address check to the publishing routes' preValidation hooks (after
 * `signedIn`, which finds the user). Register before the routes. A no-op unless required.
 */
export function requireVerifiedEmailToPublish(
  app: FastifyInstance,
  verification: Pick<EmailVerification, 'required' | 'assertCanPublish'>,
): void {
  if (!verification.required) return;
  const check: preValidationAsyncHookHandler = (request) =>
    verification.assertCanPublish(userOf(request).id);
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    if (!methods.some((method) => PUBLISHING_ROUTES.has(`${method} ${route.url}`))) return;
    const existing = route.preValidation;
    route.preValidation = [
      ...(Array.isArray(existing) ? existing : existing ? [existing] : []),
      check,
    ];
  });
}
