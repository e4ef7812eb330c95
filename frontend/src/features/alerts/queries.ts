import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import * as alerts from "./api";

export const alertKeys = {
  all: ["alerts"] as const,
  rules: (datasetId: number) => ["alerts", "rules", datasetId] as const,
  history: (ruleId: number) => ["alerts", "history", ruleId] as const,
  channels: (ws: number) => ["alerts", "channels", ws] as const,
};

/** Polls while a delivery is still queued, so its sent or failed status shows by itself. */
const pending = (items: { status: string }[]) => items.some((d) => d.status === "queued");

export const useRules = (datasetId: number) =>
  useQuery({
    queryKey: alertKeys.rules(datasetId),
    queryFn: () => alerts.listRules(datasetId),
    refetchInterval: (q) =>
      pending((q.state.data ?? []).flatMap((r) => r.last_evaluation?.deliveries ?? [])) ? 2000 : false,
  });

export const useHistory = (ruleId: number | null) =>
  useQuery({
    queryKey: alertKeys.history(ruleId ?? 0),
    queryFn: () => alerts.listEvaluations(ruleId ?? 0),
    enabled: ruleId !== null,
    refetchInterval: (q) => (pending((q.state.data?.items ?? []).flatMap((e) => e.deliveries ?? [])) ? 2000 : false),
  });

export const useChannels = (ws: number) =>
  useQuery({
    queryKey: alertKeys.channels(ws),
    queryFn: () => alerts.listChannels(ws),
    refetchInterval: (q) =>
      pending((q.state.data ?? []).flatMap((c) => (c.last_delivery ? [c.last_delivery] : []))) ? 2000 : false,
  });

/** A mutation that refreshes every alert query (rules, history, channels). */
export function useAlertMutation<Args, Out>(call: (args: Args) => Promise<Out>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: call,
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: alertKeys.all });
    },
  });
}
