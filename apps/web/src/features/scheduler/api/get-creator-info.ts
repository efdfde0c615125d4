import { creatorInfoSchema } from '@cadence/shared/schemas/account';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

/** GET /api/accounts/:id/creator-info — asked each time the form opens on an account (TikTok §6). */
export function getCreatorInfo(accountId: string) {
  return apiRequest(
    `/api/accounts/${encodeURIComponent(accountId)}/creator-info`,
    creatorInfoSchema,
  );
}

export function getCreatorInfoQueryOptions(accountId: string) {
  return queryOptions({
    queryKey: queryKeys.accounts.creatorInfo(accountId),
    queryFn: () => getCreatorInfo(accountId),
    // TikTok's answer can change (posting caps): never reuse an old one for a new form.
    staleTime: 0,
    gcTime: 0,
    retry: false,
  });
}

export function useCreatorInfo(accountId: string) {
  return useQuery({ ...getCreatorInfoQueryOptions(accountId), enabled: accountId !== '' });
}
