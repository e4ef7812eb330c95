/** Bucket arithmetic of a report read off a latency histogram. */
import type { CapacityReport } from "../../api/capacityReport";

type Bounds = NonNullable<CapacityReport["histogram"]>["bucket_bounds_s"];

/** The finite upper bounds, and the bucket [lower, upper] holding a latency (upper null: +Inf). */
export function bucketOf(bounds: Bounds, latencyS: number): [number, number | null] {
  const finite = bounds.filter((b): b is number => typeof b === "number");
  const i = finite.findIndex((b) => latencyS <= b);
  if (i < 0) return [finite[finite.length - 1] ?? 0, null];
  return [i === 0 ? Math.min(finite[0] ?? 0, 0) : (finite[i - 1] ?? 0), finite[i] ?? null];
}

