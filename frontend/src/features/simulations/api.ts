/** The simulation REST calls (the editor, runs, sweeps, saved scenarios, presets). */
import { api, unwrap } from "../../api/client";
import type { components } from "../../api/schema";
import type { Scenario } from "./scenarioDoc";

type Schemas = components["schemas"];
export type Simulation = Schemas["SimulationOut"];
export type SimulationPage = Schemas["SimulationPage"];
export type SavedScenario = Schemas["SavedScenarioOut"];
export type Preset = Schemas["Preset"];
export type SweepIn = Schemas["SweepIn"];
export type SweepRun = Schemas["SweepRunOut"];
export type JsonSchema = Record<string, unknown>;

export interface NewSimulation {
  name: string;
  scenario: Scenario;
  sweep?: SweepIn;
  workspace_id?: number;
  /** Overrides the scenario's seed. */
  seed?: number | null;
}

export function listSimulations(workspaceId: number | null, limit = 100): Promise<SimulationPage> {
  const query = workspaceId === null ? { limit } : { workspace_id: workspaceId, limit };
  return unwrap(api.GET("/api/v1/simulations", { params: { query } }));
}

export function getSimulation(id: number): Promise<Simulation> {
  return unwrap(api.GET("/api/v1/simulations/{simulation_id}", { params: { path: { simulation_id: id } } }));
}

/** One run of a finished sweep with its stored result (404 run_not_stored for old sweeps). */
export function getSweepRun(id: number, index: number): Promise<SweepRun> {
  return unwrap(api.GET("/api/v1/simulations/{simulation_id}/runs/{index}", { params: { path: { simulation_id: id, index } } }));
}

export function createSimulation(body: NewSimulation): Promise<Simulation> {
  return unwrap(api.POST("/api/v1/simulations", { body: { seed: null, sweep: null, workspace_id: null, ...body } }));
}

export function cancelSimulation(id: number): Promise<Simulation> {
  return unwrap(api.POST("/api/v1/simulations/{simulation_id}/cancel", { params: { path: { simulation_id: id } } }));
}

export function getScenarioSchema(): Promise<JsonSchema> {
  return unwrap(api.GET("/api/v1/simulations/schema"));
}

/** Resolves when the server accepts the document; throws an ApiError naming the field otherwise. */
export async function checkScenario(scenario: Scenario, workspaceId: number | null = null): Promise<void> {
  await unwrap(api.POST("/api/v1/simulations/schema/check", { body: { scenario, workspace_id: workspaceId } }));
}

export function listPresets(): Promise<Preset[]> {
  return unwrap(api.GET("/api/v1/simulations/presets"));
}

/** A scenario from a dataset: its workload model, or a replay of its requests (dataset references). */
export function getDatasetPreset(datasetId: number, source: "model" | "replay" = "model"): Promise<Preset> {
  return unwrap(
    api.GET("/api/v1/simulations/presets/datasets/{dataset_id}", { params: { path: { dataset_id: datasetId }, query: { source } } }),
  );
}

export async function listSavedScenarios(workspaceId: number | null): Promise<SavedScenario[]> {
  const query = workspaceId === null ? {} : { workspace_id: workspaceId };
  const page = await unwrap(api.GET("/api/v1/simulations/scenarios", { params: { query } }));
  return page.items;
}

export function saveScenario(name: string, scenario: Scenario, workspaceId?: number): Promise<SavedScenario> {
  return unwrap(api.POST("/api/v1/simulations/scenarios", { body: { name, scenario, workspace_id: workspaceId } }));
}

export function updateSavedScenario(id: number, scenario: Scenario): Promise<SavedScenario> {
  return unwrap(
    api.PATCH("/api/v1/simulations/scenarios/{scenario_id}", {
      params: { path: { scenario_id: id } },
      body: { scenario },
    }),
  );
}

export async function deleteSavedScenario(id: number): Promise<void> {
  await unwrap(api.DELETE("/api/v1/simulations/scenarios/{scenario_id}", { params: { path: { scenario_id: id } } }));
}
