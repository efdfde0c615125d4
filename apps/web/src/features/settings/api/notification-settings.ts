import {
  notificationSettingsSchema,
  type NotificationSettings,
} from '@cadence/shared/schemas/notification';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

/** Which notifications I get by email, and whether as a daily digest. */
export function getNotificationSettings() {
  return apiRequest('/api/notifications/settings', notificationSettingsSchema);
}

export function getNotificationSettingsQueryOptions() {
  return queryOptions({
    queryKey: queryKeys.notifications.settings,
    queryFn: getNotificationSettings,
  });
}

export function useNotificationSettings() {
  return useQuery(getNotificationSettingsQueryOptions());
}

export function saveNotificationSettings(settings: NotificationSettings) {
  return apiRequest('/api/notifications/settings', notificationSettingsSchema, {
    method: 'PUT',
    body: settings,
  });
}

export function useSaveNotificationSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveNotificationSettings,
    onSuccess: (saved) => queryClient.setQueryData(queryKeys.notifications.settings, saved),
  });
}
