import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { isJobActive } from "../../api/models";
import {
  cancelSimulation,
  createSimulation,
  getScenarioSchema,
  getSimulation,
  getSweepRun,
  listPresets,
  listSavedScenarios,
  listSimulations,
  type NewSimulation,
  type Simulation,
} from "./api";

export const SIM_POLL_MS = 1000;

export const simKeys = {
  list: (workspaceId: number | null) => ["simulations", "list", workspaceId] as const,
  detail: (id: number) => ["simulations", "detail", id] as const,
  sweepRun: (id: number, index: number) => ["simulations", "detail", id, "run", index] as const,
  schema: ["simulations", "schema"] as const,
  presets: ["simulations", "presets"] as const,
  saved: (workspaceId: number | null) => ["simulations", "saved", workspaceId] as const,
};

/** Polls while any simulation is queued or running. */
export function useSimulations(workspaceId: number | null) {
  return useQuery({
    queryKey: simKeys.list(workspaceId),
    queryFn: () => listSimulations(workspaceId),
    refetchInterval: (q) => (q.state.data?.items.some((s) => isJobActive(s.job)) === true ? SIM_POLL_MS : false),
  });
}

/** One simulation; polls its progress until the job ends, then holds its result. */
export function useSimulation(id: number | null) {
  return useQuery({
    queryKey: simKeys.detail(id ?? -1),
    queryFn: () => getSimulation(id ?? -1),
    enabled: id !== null,
    refetchInterval: (q) => (q.state.data === undefined || isJobActive(q.state.data.job) ? SIM_POLL_MS : false),
  });
}

/** A stored run of a sweep: immutable once there, so it is never refetched. */
export function useSweepRun(id: number, index: number) {
  return useQuery({ queryKey: simKeys.sweepRun(id, index), queryFn: () => getSweepRun(id, index), staleTime: Infinity });
}

export function useScenarioSchema() {
  return useQuery({ queryKey: simKeys.schema, queryFn: getScenarioSchema, staleTime: Infinity });
}

export function usePresets() {
  return useQuery({ queryKey: simKeys.presets, queryFn: listPresets, staleTime: Infinity });
}

export function useSavedScenarios(workspaceId: number | null) {
  return useQuery({ queryKey: simKeys.saved(workspaceId), queryFn: () => listSavedScenarios(workspaceId) });
}

export function useCreateSimulation(onDone: (simulation: Simulation) => void) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: NewSimulation) => createSimulation(body),
    onSuccess: (simulation) => {
      client.setQueryData(simKeys.detail(simulation.id), simulation);
      void client.invalidateQueries({ queryKey: ["simulations", "list"] });
      onDone(simulation);
    },
  });
}

export function useCancelSimulation(id: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => cancelSimulation(id),
    onSuccess: (simulation) => client.setQueryData(simKeys.detail(id), simulation),
  });
}
