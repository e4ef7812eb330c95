import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { deleteDataset, getDataset, getSummary, listDatasets, listRequests, renameDataset, type DatasetListQuery } from "../../api/endpoints";
import type { SliceParams } from "../../api/models";
import { isDatasetBusy } from "../../api/models";

export const DATASET_POLL_MS = 1000;

export const datasetKeys = {
  all: ["datasets"] as const,
  list: (workspaceId: number | null, query: DatasetListQuery = {}) => ["datasets", "list", workspaceId, query] as const,
  detail: (id: number) => ["datasets", "detail", id] as const,
  summary: (id: number, slice: SliceParams = {}) => ["datasets", "summary", id, slice] as const,
  requests: (id: number, slice: SliceParams) => ["datasets", "requests", id, slice] as const,
};

/** The workspace's datasets (newest first unless sorted; optionally those whose name contains
 * `search`); polls every second while any of them is being processed. */
export function useDatasets(workspaceId: number | null, query: DatasetListQuery = {}) {
  return useQuery({
    queryKey: datasetKeys.list(workspaceId, query),
    queryFn: () => listDatasets(workspaceId, query),
    placeholderData: keepPreviousData,
    refetchInterval: (q) => (q.state.data?.items.some(isDatasetBusy) === true ? DATASET_POLL_MS : false),
    staleTime: 0,
  });
}

export function useDataset(datasetId: number) {
  return useQuery({
    queryKey: datasetKeys.detail(datasetId),
    queryFn: () => getDataset(datasetId),
    refetchInterval: (q) => (q.state.data !== undefined && isDatasetBusy(q.state.data) ? DATASET_POLL_MS : false),
    staleTime: 0,
  });
}

/** The traffic summary of the whole log, or of a slice (recomputed by the API); the previous
 * slice's stays on screen while the next one loads. */
export function useSummary(datasetId: number, enabled: boolean, slice: SliceParams = {}) {
  return useQuery({
    queryKey: datasetKeys.summary(datasetId, slice),
    queryFn: () => getSummary(datasetId, slice),
    enabled,
    placeholderData: keepPreviousData,
    staleTime: 5 * 60_000,
  });
}

/** One page of the requests of a slice (`page_token` from the previous page). */
export function useRequestPage(datasetId: number, slice: SliceParams | null) {
  return useQuery({
    queryKey: datasetKeys.requests(datasetId, slice ?? {}),
    queryFn: () => listRequests(datasetId, slice ?? {}),
    enabled: slice !== null,
    placeholderData: keepPreviousData,
    staleTime: 5 * 60_000,
  });
}

/** Renames or deletes a dataset, then refreshes every dataset query (lists, the dataset). */
export function useDatasetChange<T>(change: (arg: T) => Promise<unknown>) {
  const client = useQueryClient();
  return useMutation({ mutationFn: change, onSuccess: () => client.invalidateQueries({ queryKey: datasetKeys.all }) });
}

export const useRenameDataset = () => useDatasetChange(({ id, name }: { id: number; name: string }) => renameDataset(id, name));
export const useDeleteDataset = () => useDatasetChange((id: number) => deleteDataset(id));
