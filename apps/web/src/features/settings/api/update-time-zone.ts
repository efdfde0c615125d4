import { useMutation, useQueryClient } from '@tanstack/react-query';
import { saveTimeZone } from '../../../lib/me.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

/**
 * Saves the person's zone (PATCH /api/me, checked by the shared schema). Screens format times
 * with it from the person's record, so they follow as soon as that is replaced; what the server
 * works out in the zone (the queue's next slots, today's count against the cap, best times) is
 * fetched again.
 */
export function useUpdateTimeZone() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveTimeZone,
    onSuccess: async (me) => {
      queryClient.setQueryData(queryKeys.me, me);
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.posts }),
        queryClient.invalidateQueries({ queryKey: queryKeys.analytics.all }),
      ]);
    },
  });
}
