/**
 * Friendly names for the API's schemas, generated from frontend/openapi.json
 * (`npm run gen:api` -> schema.d.ts). The only module that knows the generated names.
 */
import type { components, paths } from "./schema";

type Schemas = components["schemas"];

export type User = Schemas["Me"];
export type Workspace = Schemas["WorkspaceRef"];
export type Dataset = Schemas["DatasetOut"];
export type Forecast = Schemas["ForecastOut"];
export type DatasetPage = Schemas["DatasetPage"];
export type DatasetSort = Schemas["DatasetSort"];
export type Job = Schemas["JobOut"];
export type TrafficSummary = Schemas["TrafficSummaryOut"];
export type SeriesPoint = Schemas["SeriesPoint"];
export type RequestPage = Schemas["RequestPageOut"];
export type RequestRow = Schemas["RequestRow"];
/** A slice of a dataset for the API: range (epoch ms), path prefix, status class, page. */
export type SliceIn = Schemas["SliceIn"];
export type SliceParams = NonNullable<paths["/api/v1/datasets/{dataset_id}/requests"]["get"]["parameters"]["query"]>;
export type Reject = Schemas["Reject"];
export type LatencySummary = Schemas["LatencyStats"];
export type UserRef = Schemas["UserRef"];
export type Analysis = Schemas["AnalysisOut"];
export type AnalysisPage = Schemas["AnalysisPage"];
/** Every field optional on the way in; the server fills the defaults. */
export type CapacityParams = Partial<Schemas["CapacityParamsIn"]>;
export type CapacityParamsIn = Schemas["CapacityParamsIn"];
export type Stance = Schemas["CapacityParamsIn"]["stance"];
/** SCT (best pool size) analyses of latency traces; every field optional on the way in. */
export type SctParams = Partial<Schemas["SctParamsIn"]>;
export type SctParamsIn = Schemas["SctParamsIn"];
/** One recommendation sentence, computed by the engine from a finished analysis. */
export type Recommendation = Schemas["Recommendation"];
export type RecommendationList = Schemas["RecommendationList"];
export type ExportOut = Schemas["ExportOut"];
export type ExportKind = ExportOut["kind"];
export type { paths };

export type DatasetStatus = Dataset["status"];
export type JobStatus = Job["status"];

export function isJobActive(job: Pick<Job, "status"> | null | undefined): boolean {
  return job?.status === "queued" || job?.status === "running";
}

export function isDatasetBusy(dataset: Pick<Dataset, "status" | "job">): boolean {
  return dataset.status === "processing" || dataset.status === "uploaded" || isJobActive(dataset.job);
}

/** Who uploaded a dataset, for display; the uploader may have been deleted. */
export function uploaderName(user: UserRef | null): string {
  if (user === null) return "a former member";
  return user.name || user.email;
}

export type { CapacityReport, ClassReport, CurvePoint, KneePoint, SlaTarget } from "./capacityReport";

export type Characterization = Schemas["CharacterizationOut"];
export type DatasetRules = Schemas["DatasetRulesOut"];
export type RulesSaved = Schemas["RulesSaved"];
export type Rules = Schemas["Rules"];
export type RuleSet = Schemas["RuleSet"];
export type Rule = Schemas["Rule"];
