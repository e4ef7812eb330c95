/** The simulation-backed policy pages' hooks: the base scenarios to pick from, and the runs being
 * shown (from the URL, else the workspace's newest of their kind). */
import { useQueries } from "@tanstack/react-query";
import { useMemo } from "react";
import { useSearchParams } from "react-router";
import { useDatasets } from "../datasets/queries";
import type { Preset, SweepIn } from "../simulations/api";
import { usePresets, useSavedScenarios, useSimulation, useSimulations } from "../simulations/queries";
import type { Scenario } from "../simulations/scenarioDoc";
import { useWorkspace } from "../workspaces/workspaceContext";
import { getDatasetPolicyPreset, type PolicyPresetSource } from "./api";

export interface ScenarioChoice {
  key: string;
  label: string;
  scenario: Scenario;
  /** What the scenario is and, for a dataset's, how its traffic was scaled. */
  description?: string;
  /** The comparison the preset was made for (a dataset's class policies: its loads and limits). */
  sweep?: SweepIn | null;
}

const SOURCES: Record<string, PolicyPresetSource> = { "class-policies": "class_policies", "virtual-queue": "virtual_queue" };

/** A ready dataset the page could not build a scenario from, and why. */
export interface UnavailableDataset {
  name: string;
  reason: string;
}

/** The page's scenario built from each ready dataset of the workspace that has a characterization,
 * and the ready datasets it could not be built from (never dropped silently). */
function useDatasetPresets(suggested: string): { presets: Preset[]; unavailable: UnavailableDataset[]; loading: boolean } {
  const { current } = useWorkspace();
  const datasets = useDatasets(current?.id ?? null);
  const source = SOURCES[suggested];
  const ready = source === undefined ? [] : (datasets.data?.items ?? []).filter((d) => d.status === "ready");
  const results = useQueries({
    queries: ready.map((d) => ({
      queryKey: ["policies", "dataset-preset", d.id, source],
      queryFn: () => getDatasetPolicyPreset(d.id, source ?? "class_policies"),
      retry: false,
      staleTime: 60_000,
    })),
  });
  const presets = results.flatMap((r) => (r.data === undefined ? [] : [r.data]));
  const unavailable = results.flatMap((r, i) => {
    const dataset = ready[i];
    if (!r.isError || dataset === undefined) return [];
    return [{ name: dataset.name, reason: r.error instanceof Error ? r.error.message : "its scenario could not be built" }];
  });
  return { presets, unavailable, loading: datasets.isLoading || results.some((r) => r.isLoading) };
}

function presetChoice(p: Preset, prefix: string): ScenarioChoice {
  return { key: `preset:${p.id}`, label: `${prefix}: ${p.name}`, scenario: p.scenario as Scenario, description: p.description, sweep: p.sweep ?? null };
}

/** The suggested built-in preset first, then the page's scenarios from the workspace's datasets (the demo
 * dataset's included), the other presets, and the workspace's saved scenarios. */
export function useScenarioChoices(suggested: string): { choices: ScenarioChoice[]; unavailable: UnavailableDataset[]; loading: boolean } {
  const { current } = useWorkspace();
  const presets = usePresets();
  const saved = useSavedScenarios(current?.id ?? null);
  const fromDatasets = useDatasetPresets(suggested);
  const choices = useMemo(() => {
    const builtIn = (presets.data ?? []).map((p) => presetChoice(p, "Preset"));
    const first = builtIn.filter((c) => c.key === `preset:${suggested}`);
    const rest = builtIn.filter((c) => c.key !== `preset:${suggested}`);
    const datasetChoices = fromDatasets.presets.map((p) => presetChoice(p, "Dataset"));
    const fromSaved = (saved.data ?? []).map((s) => ({ key: `saved:${s.id}`, label: `Saved: ${s.name}`, scenario: s.scenario as Scenario }));
    return [...first, ...datasetChoices, ...rest, ...fromSaved];
  }, [presets.data, saved.data, suggested, fromDatasets.presets]);
  return { choices, unavailable: fromDatasets.unavailable, loading: presets.isLoading || saved.isLoading };
}

/** Simulation ids named in the URL (`?key=12`), else the newest of the workspace named exactly `exact[i]`
 * (the runs of the scenario the user picked) or, without one, whose name starts with the prefix. */
export function useShownIds(keys: string[], prefixes: string[], exact: (string | null)[] = []): { ids: (number | null)[]; show: (ids: number[]) => void; listed: boolean } {
  const [params, setParams] = useSearchParams();
  const { current } = useWorkspace();
  const list = useSimulations(current?.id ?? null);
  const fromUrl = keys.map((k) => {
    const v = Number(params.get(k));
    return Number.isInteger(v) && v > 0 ? v : null;
  });
  const anyInUrl = fromUrl.some((v) => v !== null);
  const named = (i: number, name: string) => {
    const want = exact[i];
    return want === null || want === undefined ? name.startsWith(prefixes[i] ?? "") : name === want;
  };
  const newest = prefixes.map((_, i) => (list.data?.items ?? []).filter((s) => named(i, s.name)).sort((a, b) => b.id - a.id)[0]?.id ?? null);
  const show = (ids: number[]) => setParams(Object.fromEntries(keys.map((k, i) => [k, String(ids[i] ?? "")])), { replace: false });
  return { ids: anyInUrl ? fromUrl : newest, show, listed: list.isSuccess };
}

/** One tracked simulation, polled while it runs. */
export function useTracked(id: number | null) {
  return useSimulation(id);
}

