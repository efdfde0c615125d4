import { zonedDateTimeToUtc, addDaysToDate } from '@cadence/shared/schedule/planner';
import {
  calendarSchema,
  draftSchema,
  postingSlotsSchema,
  schedulePreviewSchema,
  type DraftBody,
  type SchedulePreviewBody,
} from '@cadence/shared/schemas/planning';
import { postSchema, type AddToQueueRequest } from '@cadence/shared/schemas/schedule';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { z } from 'zod';
import { apiRequest } from '../../../lib/api-client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';
import { createRequestKeys } from '../../../lib/request-keys.ts';

// The schedule form's planning calls: saving and deleting drafts (their list: get-drafts.ts),
// posting slots and 'Add to queue', the preview of a timing's slots, and the accounts' posts
// today against TikTok's daily cap (decision 027).

const createdSchema = z.object({ scheduleId: z.string(), posts: z.array(postSchema) });

/** POST /api/drafts, or PUT /api/drafts/:id when the form holds a saved draft. */
export function useSaveDraft() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: string | null; body: DraftBody }) =>
      apiRequest(
        id === null ? '/api/drafts' : `/api/drafts/${encodeURIComponent(id)}`,
        draftSchema,
        {
          method: id === null ? 'POST' : 'PUT',
          body,
        },
      ),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.drafts }),
  });
}

export function useDeleteDraft() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      apiRequest(`/api/drafts/${encodeURIComponent(id)}`, z.null(), { method: 'DELETE' }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.drafts }),
  });
}

/** POST /api/schedules/queue: each video in the account's next free posting slot. */
export function useAddToQueue() {
  const queryClient = useQueryClient();
  // The same body sent again (a retry) is queued once: see lib/request-keys.ts.
  const [keys] = useState(createRequestKeys);
  return useMutation({
    mutationFn: (body: AddToQueueRequest) =>
      apiRequest('/api/schedules/queue', createdSchema, {
        method: 'POST',
        body,
        idempotencyKey: keys.keyFor(body),
      }),
    onSuccess: () => {
      keys.reset();
      return Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.posts }),
        queryClient.invalidateQueries({ queryKey: queryKeys.accounts.all }),
      ]);
    },
  });
}

const slotsPath = (accountId: string) => `/api/accounts/${encodeURIComponent(accountId)}/slots`;

export function usePostingSlots(accountId: string) {
  return useQuery({
    queryKey: queryKeys.planning.slots(accountId),
    queryFn: () => apiRequest(slotsPath(accountId), postingSlotsSchema),
    enabled: accountId !== '',
  });
}

export function useSaveSlots(accountId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (slots: { weekday: number; time: string }[]) =>
      apiRequest(slotsPath(accountId), postingSlotsSchema, { method: 'PUT', body: { slots } }),
    onSuccess: (saved) => queryClient.setQueryData(queryKeys.planning.slots(accountId), saved),
  });
}

/** The slots the form's timing would give, refreshed as the person edits (null: nothing yet). */
export function useSchedulePreview(body: SchedulePreviewBody | null) {
  return useQuery({
    queryKey: queryKeys.planning.preview(body ?? {}),
    queryFn: () =>
      apiRequest('/api/schedules/preview', schedulePreviewSchema, { method: 'POST', body }),
    enabled: body !== null,
    // Typing a new time keeps the last slots on screen until the new ones arrive.
    placeholderData: keepPreviousData,
    retry: false,
  });
}

/**
 * Each account's posts today (those that use up a post: pending, publishing, published) against
 * the daily cap, from the calendar's per-day counts of today in `timeZone`.
 */
export function useTodayCounts(today: string, timeZone: string, enabled: boolean) {
  return useQuery({
    queryKey: queryKeys.planning.today(today, timeZone),
    queryFn: async () => {
      const query = new URLSearchParams({
        from: zonedDateTimeToUtc(today, '00:00', timeZone).toISOString(),
        to: zonedDateTimeToUtc(addDaysToDate(today, 1), '00:00', timeZone).toISOString(),
        timeZone,
        limit: '1',
      });
      const calendar = await apiRequest(`/api/posts/calendar?${query}`, calendarSchema);
      const counts = new Map<string, number>();
      for (const day of calendar.days) {
        if (day.accountId !== null && day.date === today) counts.set(day.accountId, day.towardsCap);
      }
      return { counts, cap: calendar.dailyCap };
    },
    enabled,
  });
}
