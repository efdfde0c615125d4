import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { SandboxUser } from '../oauth-store.ts';

const fieldsQuerySchema = z.object({ fields: z.string().min(1) });

/** The comma-separated `fields` query of user info and video list/query; null when absent. */
export function parseFields(request: FastifyRequest): string[] | null {
  const parsed = fieldsQuerySchema.safeParse(request.query);
  if (!parsed.success) return null;
  return parsed.data.fields
    .split(',')
    .map((field) => field.trim())
    .filter((field) => field.length > 0);
}

/** The requested `fields` of `source`, in the order asked. */
export function pick(
  source: Record<string, unknown>,
  fields: readonly string[],
): Record<string, unknown> {
  return Object.fromEntries(fields.map((field) => [field, source[field]]));
}

/** Where the sandbox serves a creator's avatar (user info, creator info). */
export function avatarUrl(baseUrl: string, user: SandboxUser): string {
  return `${baseUrl}/avatar/${user.openId}.svg`;
}
