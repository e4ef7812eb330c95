import { describe, expect, it } from "vitest";
import { bucketRows } from "./bucketRows";

const interval = (t: string, p95: number | null, low: number | null, high: number | null) => ({
  t,
  p50_s: p95 === null ? null : p95 / 2,
  p95_s: p95,
  p99_s: p95 === null ? null : p95 * 1.5,
  p95_bucket_low_s: low,
  p95_bucket_high_s: high,
});

describe("the p95 bucket rows", () => {
  it("keep the intervals with percentiles and a finite bucket", () => {
    const rows = bucketRows({
      dataset_id: 1,
      step_s: 60,
      bucket_bounds_s: [0.25, 0.3],
      note: "percentiles are interpolated within histogram buckets",
      intervals: [
        interval("2026-11-26T12:00:00Z", 0.28, 0.25, 0.3),
        interval("2026-11-26T12:01:00Z", null, null, null), // no observations
        interval("2026-11-26T12:02:00Z", 0.3, 0.3, null), // in the +Inf bucket
      ],
    });
    expect(rows).toEqual([{ t: Date.parse("2026-11-26T12:00:00Z"), p50_s: 0.14, p95_s: 0.28, p99_s: 0.28 * 1.5, low_s: 0.25, high_s: 0.3 }]);
  });
});
