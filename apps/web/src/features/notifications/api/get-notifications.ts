import { notificationListSchema } from '@cadence/shared/schemas/notification';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

/** My latest notifications and the unread count (the bell). */
export function getNotifications() {
  return apiRequest('/api/notifications', notificationListSchema);
}

export function getNotificationsQueryOptions() {
  return queryOptions({ queryKey: queryKeys.notifications.list, queryFn: getNotifications });
}

/** `poll`: look again every minute (the live stream is down); `enabled`: ask at all yet. */
export function useNotifications({ poll, enabled }: { poll: boolean; enabled: boolean }) {
  return useQuery({
    ...getNotificationsQueryOptions(),
    refetchInterval: poll ? 60_000 : false,
    enabled,
  });
}
