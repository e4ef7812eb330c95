import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import {
  createCharacterization,
  getArrivalWindow,
  getCharacterization,
  getCurrentCharacterization,
  getRules,
  getRulesSchema,
  saveRules,
} from "../../api/endpoints";
import { isJobActive, type Characterization, type Rules } from "../../api/models";
import type { SliceBody } from "../datasets/slice";
import type { CharacterizationResult } from "./result";
import type { ArrivalWindowData, ArrivalWindowQuery } from "./zoom";

export const CHARACTERIZATION_POLL_MS = 1000;

export const characterizationKeys = {
  current: (datasetId: number) => ["characterization", "current", datasetId] as const,
  slice: (datasetId: number, slice: SliceBody) => ["characterization", "slice", datasetId, slice] as const,
  rules: (datasetId: number) => ["characterization", "rules", datasetId] as const,
  schema: ["characterization", "rules-schema"] as const,
  arrivals: (datasetId: number | null, window: ArrivalWindowQuery | null) => ["characterization", "arrivals", datasetId, window] as const,
};

/** The current characterization, polled while its job is queued or running. The first load
 * asks for it with a create-or-reuse POST, so a new dataset's first visit starts it (pending,
 * never a 404); under the stored rules a viewer may ask too (it is derived, read-only data);
 * every later poll reads it. */
export function useCharacterization(datasetId: number) {
  const client = useQueryClient();
  const key = characterizationKeys.current(datasetId);
  return useQuery({
    queryKey: key,
    queryFn: () => (client.getQueryData(key) === undefined ? createCharacterization(datasetId) : getCurrentCharacterization(datasetId)),
    refetchInterval: (q) => (q.state.data !== undefined && isJobActive(q.state.data.job) ? CHARACTERIZATION_POLL_MS : false),
    staleTime: 60_000,
  });
}

/** The characterization of a slice (a range and filters), polled while its job runs. Anyone
 * who may read the dataset asks for it with a create-or-reuse POST (a new slice starts a
 * job under the stored rules); later polls read it. */
export function useSlicedCharacterization(datasetId: number, slice: SliceBody) {
  const client = useQueryClient();
  const key = characterizationKeys.slice(datasetId, slice);
  return useQuery({
    queryKey: key,
    queryFn: (): Promise<Characterization> => {
      const known = client.getQueryData<Characterization>(key);
      return known === undefined ? createCharacterization(datasetId, slice) : getCharacterization(known.id);
    },
    refetchInterval: (q) => (q.state.data !== undefined && isJobActive(q.state.data.job) ? CHARACTERIZATION_POLL_MS : false),
    staleTime: 60_000,
  });
}

/** The result the tabs draw; null without one, or for one made before chart data was kept. */
export function resultOf(item: Characterization): CharacterizationResult | null {
  const result = item.result ?? null;
  return result === null || result.display == null ? null : { ...result, display: result.display };
}

export function useRules(datasetId: number) {
  return useQuery({ queryKey: characterizationKeys.rules(datasetId), queryFn: () => getRules(datasetId) });
}

export function useRulesSchema() {
  return useQuery({ queryKey: characterizationKeys.schema, queryFn: getRulesSchema, staleTime: Infinity });
}

/** Saves the rules; the characterization under them (queued when new) becomes the current one. */
export function useSaveRules(datasetId: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (rules: Rules) => saveRules(datasetId, rules),
    onSuccess: (saved) => {
      client.setQueryData(characterizationKeys.rules(datasetId), saved.rules);
      client.setQueryData(characterizationKeys.current(datasetId), saved.characterization);
    },
  });
}

/** A zoomed window of the arrival series at full resolution; idle without a dataset or a window. */
export function useArrivalWindow(datasetId: number | null, window: ArrivalWindowQuery | null) {
  return useQuery<ArrivalWindowData>({
    queryKey: characterizationKeys.arrivals(datasetId, window),
    queryFn: () => getArrivalWindow(datasetId ?? 0, window ?? { start_ms: 0, end_ms: 0, every_s: 1 }),
    enabled: datasetId !== null && window !== null,
    staleTime: Infinity,
  });
}
