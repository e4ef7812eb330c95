/** Friendly names for the API's schemas; the only module that knows where types come from. */
import type { components } from "./types";

type Schemas = components["schemas"];

export type User = Schemas["User"];
export type Workspace = Schemas["WorkspaceMembership"];
export type Dataset = Schemas["Dataset"];
export type DatasetPage = Schemas["DatasetPage"];
export type Job = Schemas["Job"];
export type TrafficSummary = Schemas["TrafficSummary"];
export type SeriesPoint = Schemas["SeriesPoint"];
export type Reject = Schemas["Reject"];
export type LatencySummary = Schemas["LatencySummary"];
export type { paths } from "./types";

export type DatasetStatus = Dataset["status"];
export type JobStatus = Job["status"];

export function isJobActive(job: Pick<Job, "status"> | null | undefined): boolean {
  return job?.status === "queued" || job?.status === "running";
}

export function isDatasetBusy(dataset: Pick<Dataset, "status" | "job">): boolean {
  return dataset.status === "processing" || dataset.status === "uploaded" || isJobActive(dataset.job);
}
