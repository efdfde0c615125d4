import { useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { apiRequest } from '../../../lib/api-client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

/** Renames the signed-in person (better-auth's update-user, checked with the shared schema). */
export function updateName(name: string) {
  return apiRequest('/api/auth/update-user', z.unknown(), { method: 'POST', body: { name } });
}

export function useUpdateName() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateName,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.me }),
  });
}
