/**
 * A characterization's `result` (`headroom characterize --json` plus `histograms` and
 * `display`), typed by the API schema (`CharacterizationDoc`,
 * backend/headroom/characterizations/documents.py).
 */
import type { components } from "../../api/schema";

type Schemas = components["schemas"];

/** A result with its chart data (`display`): the tabs draw only those (see `resultOf`). */
export type CharacterizationResult = Schemas["CharacterizationDoc"] & { display: Display };
export type ArrivalStats = Schemas["ArrivalStats"];
export type ArrivalView = Schemas["ArrivalView"];
export type PercentileColumns = Schemas["PercentileColumns"];
export type LatencyView = Schemas["LatencyView"];
export type PathRow = Schemas["PathRow"];
export type CountHistogram = Schemas["CountHistogram"];
export type Display = Schemas["Display"];
export type FieldsRecorded = Schemas["FieldsRecordedDoc"];
export type FittedHistogram = Schemas["FittedHistogram"];
export type Candidate = Schemas["Candidate"];
export type BodyTail = Schemas["BodyTail"];
export type FitReport = Schemas["FitReport"];
export type LatencyPercentiles = Schemas["LatencyPercentiles"];
