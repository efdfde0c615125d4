import { createHmac, timingSafeEqual } from 'node:crypto';
import {
  unsubscribeScopeSchema,
  type UnsubscribeScope,
} from '@cadence/shared/schemas/notification';

/**
 * One-click unsubscribe tokens: `<user id, base64url>.<type>.<HMAC-SHA256>`, signed with a key
 * derived from SESSION_SECRET; the type is a notification type, or 'all' (a digest's header). Unguessable without the secret and bound to one person and one
 * type; no row to store or expire, and using one twice only turns off what is already off.
 */
export function createUnsubscribeTokens(secret: string) {
  const key = createHmac('sha256', secret).update('cadence:unsubscribe:v1').digest();
  const sign = (payload: string) => createHmac('sha256', key).update(payload).digest('base64url');
  return {
    create(userId: string, type: UnsubscribeScope): string {
      const payload = `${Buffer.from(userId).toString('base64url')}.${type}`;
      return `${payload}.${sign(payload)}`;
    },

    /** The person and type a token names, or null for anything not signed by us. */
    verify(token: string): { userId: string; type: UnsubscribeScope } | null {
      const parts = token.split('.');
      if (parts.length !== 3) return null;
      const [encodedUser = '', rawType = '', signature = ''] = parts;
      const expected = Buffer.from(sign(`${encodedUser}.${rawType}`));
      const given = Buffer.from(signature);
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
      const type = unsubscribeScopeSchema.safeParse(rawType);
      if (!type.success) return null;
      return { userId: Buffer.from(encodedUser, 'base64url').toString(), type: type.data };
    },
  };
}

export type UnsubscribeTokens = ReturnType<typeof createUnsubscribeTokens>;
