import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { createAnalysis, createSctAnalysis, getAnalysis, getRecommendations, listAnalyses } from "../../api/endpoints";
import { useDebounced } from "../../lib/useDebounced";
import { isJobActive, type Analysis, type CapacityParams, type SctParams } from "../../api/models";

export const ANALYSIS_POLL_MS = 1000;
/** The SLA handle moves on every pixel of a drag: the recommendations follow once it rests. */
export const RECOMMENDATIONS_DEBOUNCE_MS = 200;
const NO_THRESHOLDS: Record<string, number> = {};

export const analysisKeys = {
  list: (datasetId: number) => ["analyses", "list", datasetId] as const,
  detail: (id: number) => ["analyses", "detail", id] as const,
  recommendations: (id: number, thresholdsS: Record<string, number>) => ["analyses", "recommendations", id, thresholdsS] as const,
};

/** The finished analysis' recommendations from the server, at the thresholds once they rest (the last list stays meanwhile). */
export function useRecommendations(analysisId: number, thresholdsS: Record<string, number> = NO_THRESHOLDS) {
  const settled = useDebounced(thresholdsS, RECOMMENDATIONS_DEBOUNCE_MS);
  return useQuery({
    queryKey: analysisKeys.recommendations(analysisId, settled),
    queryFn: () => getRecommendations(analysisId, settled),
    placeholderData: keepPreviousData,
    staleTime: Infinity, // a finished report does not change
  });
}

/** The dataset's analyses, newest first; polls while one of them is queued or running. */
export function useAnalyses(datasetId: number) {
  return useQuery({
    queryKey: analysisKeys.list(datasetId),
    queryFn: () => listAnalyses(datasetId),
    refetchInterval: (q) => (q.state.data?.items.some((a) => isJobActive(a.job)) === true ? ANALYSIS_POLL_MS : false),
    staleTime: 0,
  });
}

/** One analysis with its report; polls while its job runs (the job's progress comes from useJob). */
export function useAnalysis(analysisId: number | null) {
  return useQuery({
    queryKey: analysisKeys.detail(analysisId ?? -1),
    queryFn: () => getAnalysis(analysisId ?? -1),
    enabled: analysisId !== null,
    refetchInterval: (q) => (q.state.data !== undefined && isJobActive(q.state.data.job) ? ANALYSIS_POLL_MS : false),
    staleTime: 0,
  });
}

export function useRunAnalysis(datasetId: number, onDone: (analysis: Analysis) => void) {
  return useCreate(datasetId, (params: CapacityParams) => createAnalysis(datasetId, params), onDone);
}

export function useRunSct(datasetId: number, onDone: (analysis: Analysis) => void) {
  return useCreate(datasetId, (params: SctParams) => createSctAnalysis(datasetId, params), onDone);
}

function useCreate<P>(datasetId: number, create: (params: P) => Promise<Analysis>, onDone: (analysis: Analysis) => void) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: create,
    onSuccess: (analysis) => {
      client.setQueryData(analysisKeys.detail(analysis.id), analysis);
      void client.invalidateQueries({ queryKey: analysisKeys.list(datasetId) });
      onDone(analysis);
    },
  });
}
