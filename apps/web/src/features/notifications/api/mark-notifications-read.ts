import type { NotificationList } from '@cadence/shared/schemas/notification';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { apiRequest } from '../../../lib/api-client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

/** Marks all my notifications read (the panel was opened). */
export function markNotificationsRead() {
  return apiRequest('/api/notifications/read', z.unknown(), { method: 'POST' });
}

export function useMarkNotificationsRead() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: markNotificationsRead,
    onMutate: () => {
      // The badge goes at once; the items keep their unread look until the panel closes.
      queryClient.setQueryData<NotificationList>(queryKeys.notifications.list, (list) =>
        list ? { ...list, unread: 0 } : list,
      );
    },
    onSettled: () =>
      queryClient.invalidateQueries({ queryKey: queryKeys.notifications.list, exact: true }),
  });
}
