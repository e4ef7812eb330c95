import { useQuery } from "@tanstack/react-query";
import { getDataset, getSummary, listDatasets } from "../../api/endpoints";
import { isDatasetBusy } from "../../api/models";

export const DATASET_POLL_MS = 1000;

export const datasetKeys = {
  all: ["datasets"] as const,
  list: (workspaceId: number | null) => ["datasets", "list", workspaceId] as const,
  detail: (id: number) => ["datasets", "detail", id] as const,
  summary: (id: number) => ["datasets", "summary", id] as const,
};

/** The workspace's datasets; polls every second while any of them is being processed. */
export function useDatasets(workspaceId: number | null) {
  return useQuery({
    queryKey: datasetKeys.list(workspaceId),
    queryFn: () => listDatasets(workspaceId),
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

export function useSummary(datasetId: number, enabled: boolean) {
  return useQuery({
    queryKey: datasetKeys.summary(datasetId),
    queryFn: () => getSummary(datasetId),
    enabled,
    staleTime: 5 * 60_000,
  });
}
