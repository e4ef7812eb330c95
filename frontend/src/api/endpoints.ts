/** One function per REST call used by the UI; hooks and tests go through these. */
import { api, unwrap } from "./client";
import { ApiError } from "./errors";
import type {
  Analysis,
  AnalysisPage,
  CapacityParams,
  CapacityParamsIn,
  SliceIn,
  SctParams,
  SctParamsIn,
  Characterization,
  Dataset,
  DatasetPage,
  DatasetRules,
  DatasetSort,
  Job,
  RecommendationList,
  Rules,
  RulesSaved,
  RequestPage,
  SliceParams,
  TrafficSummary,
  User,
} from "./models";

export async function getMe(): Promise<User | null> {
  try {
    return await unwrap(api.GET("/api/v1/auth/me"));
  } catch (err) {
    if (err instanceof ApiError && err.status === 401) return null;
    throw err;
  }
}

export function login(email: string, password: string): Promise<User> {
  return unwrap(api.POST("/api/v1/auth/login", { body: { email, password } }));
}

export async function logout(): Promise<void> {
  await unwrap(api.POST("/api/v1/auth/logout"));
}

export interface DatasetListQuery {
  search?: string;
  sort?: DatasetSort;
}

export function listDatasets(workspaceId: number | null, { search = "", sort = "newest" }: DatasetListQuery = {}, limit = 50, offset = 0): Promise<DatasetPage> {
  const query = {
    ...(workspaceId === null ? {} : { workspace_id: workspaceId }),
    limit,
    offset,
    ...(sort === "newest" ? {} : { sort }),
    ...(search === "" ? {} : { q: search }),
  };
  return unwrap(api.GET("/api/v1/datasets", { params: { query } }));
}

export function renameDataset(datasetId: number, name: string): Promise<Dataset> {
  return unwrap(api.PATCH("/api/v1/datasets/{dataset_id}", { params: { path: { dataset_id: datasetId } }, body: { name } }));
}

export async function deleteDataset(datasetId: number): Promise<void> {
  await unwrap(api.DELETE("/api/v1/datasets/{dataset_id}", { params: { path: { dataset_id: datasetId } } }));
}

export function getDataset(datasetId: number): Promise<Dataset> {
  return unwrap(api.GET("/api/v1/datasets/{dataset_id}", { params: { path: { dataset_id: datasetId } } }));
}

/** The traffic summary; for a slice (range, path prefix, status class), recomputed by the API. */
export function getSummary(datasetId: number, query: SliceParams = {}): Promise<TrafficSummary> {
  return unwrap(
    api.GET("/api/v1/datasets/{dataset_id}/summary", { params: { path: { dataset_id: datasetId }, query } }),
  );
}

/** A page of the requests of a slice, in the log's order. */
export function listRequests(datasetId: number, query: SliceParams): Promise<RequestPage> {
  return unwrap(api.GET("/api/v1/datasets/{dataset_id}/requests", { params: { path: { dataset_id: datasetId }, query } }));
}

export function getJob(jobId: number): Promise<Job> {
  return unwrap(api.GET("/api/v1/jobs/{job_id}", { params: { path: { job_id: jobId } } }));
}

export function createAnalysis(datasetId: number, params: CapacityParams): Promise<Analysis> {
  return unwrap(
    api.POST("/api/v1/datasets/{dataset_id}/analyses", {
      params: { path: { dataset_id: datasetId } },
      // Every field is optional on the wire (the server fills defaults); the generated type marks defaults required.
      body: params as CapacityParamsIn,
    }),
  );
}

export function createSctAnalysis(datasetId: number, params: SctParams): Promise<Analysis> {
  return unwrap(
    api.POST("/api/v1/datasets/{dataset_id}/analyses/sct", {
      params: { path: { dataset_id: datasetId } },
      body: params as SctParamsIn,
    }),
  );
}

export function listAnalyses(datasetId: number, limit = 50, offset = 0): Promise<AnalysisPage> {
  return unwrap(
    api.GET("/api/v1/datasets/{dataset_id}/analyses", {
      params: { path: { dataset_id: datasetId }, query: { limit, offset } },
    }),
  );
}

export function getAnalysis(analysisId: number): Promise<Analysis> {
  return unwrap(api.GET("/api/v1/analyses/{analysis_id}", { params: { path: { analysis_id: analysisId } } }));
}

/** The analysis' recommendations, at these SLA thresholds per class (capacity; the analysis' own for the others). */
export function getRecommendations(analysisId: number, thresholdsS: Record<string, number>): Promise<RecommendationList> {
  return unwrap(
    api.POST("/api/v1/analyses/{analysis_id}/recommendations", {
      params: { path: { analysis_id: analysisId } },
      body: { thresholds_s: thresholdsS },
    }),
  );
}

/** The characterization under the dataset's stored rules; 404 until one was started. */
export function getCurrentCharacterization(datasetId: number): Promise<Characterization> {
  return unwrap(
    api.GET("/api/v1/datasets/{dataset_id}/characterization", { params: { path: { dataset_id: datasetId } } }),
  );
}

/** Starts (or finds) the characterization under the dataset's stored rules (of a slice: a range and filters). */
export function createCharacterization(datasetId: number, slice: SliceIn | null = null): Promise<Characterization> {
  return unwrap(
    api.POST("/api/v1/datasets/{dataset_id}/characterizations", {
      params: { path: { dataset_id: datasetId } },
      ...(slice === null ? {} : { body: { slice } }),
    }),
  );
}

export function getCharacterization(id: number): Promise<Characterization> {
  return unwrap(api.GET("/api/v1/characterizations/{item_id}", { params: { path: { item_id: id } } }));
}

export function getRules(datasetId: number): Promise<DatasetRules> {
  return unwrap(api.GET("/api/v1/datasets/{dataset_id}/rules", { params: { path: { dataset_id: datasetId } } }));
}

export function saveRules(datasetId: number, rules: Rules): Promise<RulesSaved> {
  return unwrap(
    api.PUT("/api/v1/datasets/{dataset_id}/rules", { params: { path: { dataset_id: datasetId } }, body: rules }),
  );
}

export function getRulesSchema(): Promise<Record<string, unknown>> {
  return unwrap(api.GET("/api/v1/characterizations/rules/schema"));
}

/** Requests per bucket of `every_s` seconds in [start_ms, end_ms), at full resolution (the chart's zoom). */
export function getArrivalWindow(
  datasetId: number,
  query: { start_ms: number; end_ms: number; every_s: number; max_points?: number } & Omit<SliceParams, "from" | "to">,
) {
  return unwrap(api.GET("/api/v1/datasets/{dataset_id}/arrivals", { params: { path: { dataset_id: datasetId }, query } }));
}

/** The dataset's hourly traffic forecast, growth, cycles, runway to the limit and backtest. */
export function getForecast(datasetId: number, query: { horizon_days: number; limit_per_s?: number } & SliceParams) {
  return unwrap(api.GET("/api/v1/datasets/{dataset_id}/forecast", { params: { path: { dataset_id: datasetId }, query } }));
}
