/**
 * The capacity report of an analysis (`Analysis.result` of kind capacity), typed by the API
 * schema (`CapacityReportDoc`, backend/headroom/analyses/documents.py).
 */
import type { components } from "./schema";

type Schemas = components["schemas"];

export type CapacityReport = Schemas["CapacityReportDoc"];
export type ClassReport = Schemas["ClassReport"];
export type MeasuredPoint = Schemas["MeasuredPoint"];
export type ModelPoint = Schemas["ModelPoint"];
export type CurvePoint = MeasuredPoint | ModelPoint;
export type Source = CurvePoint["source"];
export type KneePoint = Schemas["KneePoint"];
export type SlaTarget = Schemas["SlaTarget"];
export type PowerChart = Schemas["PowerChart"];
export type VirtualQueueAdvice = Schemas["VirtualQueueAdvice"];
export type AnalysisReport = CapacityReport | Schemas["SctReportDoc"];

/** The report in an analysis' `result`, or null when it is missing or not a capacity report. */
export function readCapacityReport(result: AnalysisReport | null | undefined): CapacityReport | null {
  return result != null && "classes" in result ? result : null;
}
