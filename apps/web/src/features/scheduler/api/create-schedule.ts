import { postSchema, type CreateScheduleRequest } from '@cadence/shared/schemas/schedule';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { z } from 'zod';
import { apiRequest } from '../../../lib/api-client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';
import { createRequestKeys } from '../../../lib/request-keys.ts';

const createdSchema = z.object({ scheduleId: z.string(), posts: z.array(postSchema) });

/**
 * POST /api/schedules — 400/403/409 carry `fields: { field: translationKey }`. With the same
 * `idempotencyKey`, the server makes the schedule once however often it is sent.
 */
export function createSchedule(request: CreateScheduleRequest, idempotencyKey?: string) {
  return apiRequest('/api/schedules', createdSchema, {
    method: 'POST',
    body: request,
    ...(idempotencyKey !== undefined && { idempotencyKey }),
  });
}

export function useCreateSchedule() {
  const queryClient = useQueryClient();
  const [keys] = useState(createRequestKeys);
  return useMutation({
    mutationFn: (request: CreateScheduleRequest) => createSchedule(request, keys.keyFor(request)),
    onSuccess: async () => {
      keys.reset();
      // The accounts' scheduled counts and next post change too; a draft scheduled is gone.
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.posts }),
        queryClient.invalidateQueries({ queryKey: queryKeys.accounts.all }),
        queryClient.invalidateQueries({ queryKey: queryKeys.drafts }),
      ]);
    },
  });
}
