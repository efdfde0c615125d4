import { apiRequest, unchecked } from '../../../lib/api-client.ts';

/**
 * Whether this browser is signed in, asked of better-auth's get-session, which answers null (not
 * 401, a console error) when it is not. Only presence counts: nothing of the answer is read.
 */
export async function hasSession(): Promise<boolean> {
  return (await apiRequest('/api/auth/get-session', unchecked)) !== null;
}
