/** The simulation-backed policy pages' hooks: the base scenarios to pick from, and the runs being
 * shown (from the URL, else the workspace's newest of their kind). */
import { useMemo } from "react";
import { useSearchParams } from "react-router";
import { usePresets, useSavedScenarios, useSimulation, useSimulations } from "../simulations/queries";
import type { Scenario } from "../simulations/scenarioDoc";
import { useWorkspace } from "../workspaces/workspaceContext";

export interface ScenarioChoice {
  key: string;
  label: string;
  scenario: Scenario;
}

/** Built-in presets first (the suggested one leading), then the workspace's saved scenarios. */
export function useScenarioChoices(suggested: string): { choices: ScenarioChoice[]; loading: boolean } {
  const { current } = useWorkspace();
  const presets = usePresets();
  const saved = useSavedScenarios(current?.id ?? null);
  const choices = useMemo(() => {
    const fromPresets = (presets.data ?? [])
      .filter((p) => !p.id.startsWith("dataset-"))
      .map((p) => ({ key: `preset:${p.id}`, label: `Preset: ${p.name}`, scenario: p.scenario as Scenario }))
      .sort((a, b) => Number(b.key === `preset:${suggested}`) - Number(a.key === `preset:${suggested}`));
    const fromSaved = (saved.data ?? []).map((s) => ({ key: `saved:${s.id}`, label: `Saved: ${s.name}`, scenario: s.scenario as Scenario }));
    return [...fromPresets, ...fromSaved];
  }, [presets.data, saved.data, suggested]);
  return { choices, loading: presets.isLoading || saved.isLoading };
}

/** Simulation ids named in the URL (`?key=12`), else the newest of the workspace whose name starts with the prefix. */
export function useShownIds(keys: string[], prefixes: string[]): { ids: (number | null)[]; show: (ids: number[]) => void; listed: boolean } {
  const [params, setParams] = useSearchParams();
  const { current } = useWorkspace();
  const list = useSimulations(current?.id ?? null);
  const fromUrl = keys.map((k) => {
    const v = Number(params.get(k));
    return Number.isInteger(v) && v > 0 ? v : null;
  });
  const anyInUrl = fromUrl.some((v) => v !== null);
  const newest = prefixes.map((p) => (list.data?.items ?? []).filter((s) => s.name.startsWith(p)).sort((a, b) => b.id - a.id)[0]?.id ?? null);
  const show = (ids: number[]) => setParams(Object.fromEntries(keys.map((k, i) => [k, String(ids[i] ?? "")])), { replace: false });
  return { ids: anyInUrl ? fromUrl : newest, show, listed: list.isSuccess };
}

/** One tracked simulation, polled while it runs. */
export function useTracked(id: number | null) {
  return useSimulation(id);
}

