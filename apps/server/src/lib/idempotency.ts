import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from './app-error.ts';

/**
 * A request's Idempotency-Key (the IETF httpapi draft's header) with a fingerprint of what it
 * asked: the same key and fingerprint again is the same request (answer what the first made); the
 * same key with another fingerprint is a client's mistake (409).
 */
export interface RequestKey {
  key: string;
  fingerprint: string;
}

const keyPattern = /^[A-Za-z0-9_-]{16,128}$/;

/** The request's key (null without the header); 400 for a key that is not 16–128 of [A-Za-z0-9_-]. */
export function requestKeyOf(request: FastifyRequest): RequestKey | null {
  const header = request.headers['idempotency-key'];
  if (header === undefined) return null;
  if (typeof header !== 'string' || !keyPattern.test(header)) {
    throw new AppError(
      'validation_failed',
      'Idempotency-Key must be 16 to 128 letters, digits, - or _',
    );
  }
  const fingerprint = createHash('sha256')
    .update(`${request.method} ${request.routeOptions.url ?? request.url}\n`)
    .update(JSON.stringify(request.body ?? null))
    .digest('base64url');
  return { key: header, fingerprint };
}

/**
 * 201 with what a keyed request made, marked `Idempotent-Replayed: true` when an earlier request
 * with the same key made it (nothing was made now).
 */
export function sendMade<TMade extends { replayed: boolean }>(
  reply: FastifyReply,
  { replayed, ...made }: TMade,
): FastifyReply {
  if (replayed) void reply.header('idempotent-replayed', 'true');
  return reply.status(201).send(made);
}
