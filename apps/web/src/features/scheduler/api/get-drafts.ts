import { draftListSchema, type Draft } from '@cadence/shared/schemas/planning';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

// Apart from the form's other planning calls (api/planning.ts): the scheduler's tabs count the
// drafts on every view, and the screen loads the form's code only when it is asked for.

/** GET /api/drafts: the person's drafts, most recently saved first. */
export async function getDrafts(): Promise<Draft[]> {
  return (await apiRequest('/api/drafts', draftListSchema)).drafts;
}

/** One entry for the form's list, the drafts tab and the tabs' count. */
export function getDraftsQueryOptions() {
  return queryOptions({ queryKey: queryKeys.drafts, queryFn: getDrafts });
}

export function useDrafts(enabled: boolean) {
  return useQuery({ ...getDraftsQueryOptions(), enabled });
}
