import { dataExportStateSchema, type DataExportState } from '@cadence/shared/schemas/user';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

/** How often the page asks while an archive is being prepared. */
const PREPARING_POLL_MS = 1500;

/** My latest data export, or `{ export: null }`. */
export function getDataExport() {
  return apiRequest('/api/me/export', dataExportStateSchema);
}

const preparing = (state: DataExportState | undefined) =>
  state?.export?.status === 'pending' || state?.export?.status === 'running';

export function getDataExportQueryOptions() {
  return queryOptions({
    queryKey: queryKeys.dataExport,
    queryFn: getDataExport,
    // Progress is read while the job runs; nothing changes by itself once it is ready.
    refetchInterval: (query) => (preparing(query.state.data) ? PREPARING_POLL_MS : false),
  });
}

export function useDataExport() {
  return useQuery(getDataExportQueryOptions());
}

/** Asks for a new archive (409 while one is being prepared). */
export function requestDataExport() {
  return apiRequest('/api/me/export', dataExportStateSchema, { method: 'POST' });
}

export function useRequestDataExport() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: requestDataExport,
    onSuccess: (state) => queryClient.setQueryData(queryKeys.dataExport, state),
  });
}
