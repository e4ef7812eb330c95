/** The run and sweep result documents (simulations.result_models on the server), by their
 * generated OpenAPI types: friendly names only, no hand-written copies. */
import type { components } from "../../api/schema";

type Schemas = components["schemas"];

export type RunDocument = Schemas["RunDocument"];
export type RunSummary = Schemas["RunSummary"];
export type LatencySummary = Schemas["LatencySummary"];
export type Cdf = Schemas["Cdf"];
export type SweepDocument = Schemas["SweepDocument"];
export type SweepRow = Schemas["SweepRow"];
export type ClassFigures = Schemas["ClassFigures"];
export type SweepKeyNumbers = Schemas["SweepKeyNumbers"];
export type TiersDocument = Schemas["TiersDocument"];
export type TierSeries = Schemas["TierSeries"];
export type TierFigures = Schemas["TierFigures"];
/** A step function: `value[i]` holds from `t_s[i]` on; null = unbounded pool or no active VM. */
export type Steps = Schemas["Steps"];
export type PoolChange = Schemas["PoolChangeOut"];
export type PartitionFigures = Schemas["PartitionFigures"];
export type QueueFigures = Schemas["QueueFigures"];
export type PartitionSeries = Schemas["PartitionSeries"];
export type QueueSeries = Schemas["QueueSeries"];
