/** The report API's shapes, named once (generated from the OpenAPI schema). */
import type { components } from "../../api/schema";

type Schemas = components["schemas"];

export type Report = Schemas["ReportOut"];
export type ReportSummary = Schemas["ReportSummary"];
export type ReportPage = Schemas["ReportPage"];
export type ReportItem = Schemas["ReportItemOut"];
export type ItemIn = Schemas["ItemIn"];
export type ItemKind = ItemIn["kind"];
export type ReportUpdate = Schemas["ReportUpdate"];
export type PublicReport = Schemas["PublicReportOut"];
export type ReportChart = Schemas["Chart"];
export type ReportSeries = Schemas["Series"];
export type ReportRange = Schemas["Range"];
export type Figure = Schemas["Figure"];
export type Unit = Figure["unit"];
export type ShareLink = Schemas["ShareLinkOut"];
export type ShareLinkCreated = Schemas["ShareLinkCreated"];
export type Comparison = Schemas["Comparison"];
export type ItemComparison = Schemas["ItemComparison"];
export type FigureDelta = Schemas["FigureDelta"];

export const KIND_LABELS: Record<ItemKind, string> = {
  capacity: "Capacity analysis",
  characterization: "Workload characterization",
  simulation: "Simulation",
  traffic: "Traffic summary",
  sct: "Concurrency (SCT) analysis",
  sweep: "Simulation sweep",
};
