import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import * as sources from "./api";

const KEY = ["sources", "prometheus"] as const;

/** Busy while an import is queued or running: polled until it ends. */
export function importing(source: sources.PrometheusSource): boolean {
  return source.job?.status === "queued" || source.job?.status === "running";
}

export const useSources = () =>
  useQuery({
    queryKey: KEY,
    queryFn: sources.listSources,
    refetchInterval: (query) => ((query.state.data ?? []).some(importing) ? 1500 : false),
  });

/** A mutation that refreshes the sources (and the datasets list: imports make datasets). */
export function useSourceMutation<Args, Out>(call: (args: Args) => Promise<Out>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: call,
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: KEY });
      void client.invalidateQueries({ queryKey: ["datasets"] });
    },
  });
}

/** The SLA breaches the source's refreshes recorded, fetched again after each refresh. */
export const useBreaches = (source: sources.PrometheusSource) =>
  useQuery({
    queryKey: [...KEY, source.id, "breaches", source.last_refresh_at],
    queryFn: () => sources.listBreaches(source.id),
    enabled: source.dataset_id != null,
  });

/** A source's dataset's traffic over a range (the previous range's stays on screen while the next loads). */
export const usePrometheusTraffic = (datasetId: number, range: { from?: number; to?: number } = {}, enabled = true) =>
  useQuery({
    enabled,
    queryKey: [...KEY, "traffic", datasetId, range],
    queryFn: () => sources.datasetTraffic(datasetId, range),
    placeholderData: keepPreviousData,
  });
