/** REST calls and queries of the policy calculators (kept here: endpoints.ts is shared). */
import { useMutation, useQuery } from "@tanstack/react-query";
import { api, unwrap } from "../../api/client";
import type { components } from "../../api/schema";

export type BackgroundDemo = components["schemas"]["BackgroundDemo"];
export type BackgroundCompare = components["schemas"]["BackgroundCompare"];
export type BackgroundComparison = components["schemas"]["BackgroundComparison"];
export type BackgroundOutcome = components["schemas"]["BackgroundOutcome"];

export function listBackgroundDemos(): Promise<BackgroundDemo[]> {
  return unwrap(api.GET("/api/v1/policies/background/demos"));
}

export function compareBackground(body: BackgroundCompare): Promise<BackgroundComparison> {
  return unwrap(api.POST("/api/v1/policies/background/compare", { body }));
}

export function useBackgroundDemos() {
  return useQuery({ queryKey: ["policies", "background", "demos"], queryFn: listBackgroundDemos, staleTime: Infinity });
}

export function useCompareBackground() {
  return useMutation({ mutationFn: compareBackground });
}

export type PolicyPresetSource = "class_policies" | "virtual_queue";

/** A policy page's scenario built from a dataset's characterization (its hourly rates, classes and
 * service times scaled to a load that exercises the policy; the scaling is in the description). */
export function getDatasetPolicyPreset(datasetId: number, source: PolicyPresetSource) {
  return unwrap(api.GET("/api/v1/simulations/presets/datasets/{dataset_id}", { params: { path: { dataset_id: datasetId }, query: { source } } }));
}
