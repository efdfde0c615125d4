import { unsubscribeReplySchema } from '@cadence/shared/schemas/notification';
import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';

/** Turns off the emails an unsubscribe link names; needs no session. */
export function unsubscribe(token: string) {
  return apiRequest(
    `/api/notifications/unsubscribe?token=${encodeURIComponent(token)}`,
    unsubscribeReplySchema,
    { method: 'POST' },
  );
}

export function useUnsubscribe() {
  return useMutation({ mutationFn: unsubscribe });
}
