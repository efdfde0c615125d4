import { postSchema, type CreateScheduleRequest } from '@cadence/shared/schemas/schedule';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { apiRequest } from '../../../lib/api-client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

const createdSchema = z.object({ scheduleId: z.string(), posts: z.array(postSchema) });

/** POST /api/schedules — 400/403/409 carry `fields: { field: translationKey }`. */
export function createSchedule(request: CreateScheduleRequest) {
  return apiRequest('/api/schedules', createdSchema, { method: 'POST', body: request });
}

export function useCreateSchedule() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createSchedule,
    onSuccess: async () => {
      // The accounts' scheduled counts and next post change too; a draft scheduled is gone.
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.posts }),
        queryClient.invalidateQueries({ queryKey: queryKeys.accounts.all }),
        queryClient.invalidateQueries({ queryKey: queryKeys.drafts }),
      ]);
    },
  });
}
