import { connectionErrorKinds, type ConnectionErrorKind } from '@cadence/shared/schemas/account';
import { z } from 'zod';

/**
 * What the server's OAuth callback reported, from `/tiktok?connected=<id>`, `?mismatch=<pending
 * connection id>` (TikTok's account is not the card's: the person chooses) or `?error=<kind>`.
 */
export type CallbackOutcome =
  | { kind: 'connected'; accountId: string }
  | { kind: 'mismatch'; pendingId: string }
  | { kind: 'error'; error: ConnectionErrorKind };

const accountIdSchema = z.uuid();
const errorKindSchema = z.enum(connectionErrorKinds);

/** The query parameters the callback sets; removed from the URL once read. */
export const callbackParams = ['connected', 'mismatch', 'error'] as const;

/**
 * Reads the callback's outcome from the query string, or null when there is none. An error kind we
 * do not know still means the connection failed, so it reads as the generic connection error.
 */
export function parseCallbackOutcome(params: URLSearchParams): CallbackOutcome | null {
  const error = params.get('error');
  if (error !== null) {
    const known = errorKindSchema.safeParse(error);
    return { kind: 'error', error: known.success ? known.data : 'connection' };
  }
  const mismatch = accountIdSchema.safeParse(params.get('mismatch'));
  if (mismatch.success) return { kind: 'mismatch', pendingId: mismatch.data };
  const connected = accountIdSchema.safeParse(params.get('connected'));
  return connected.success ? { kind: 'connected', accountId: connected.data } : null;
}
