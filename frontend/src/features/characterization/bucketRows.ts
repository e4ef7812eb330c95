import type { PrometheusLatency } from "../sources/api";

export interface BucketRow {
  t: number;
  p50_s: number;
  p95_s: number;
  p99_s: number;
  low_s: number;
  high_s: number;
}

/** Intervals with all three percentiles and a finite p95 bucket (the +Inf bucket has no top to draw). */
export function bucketRows(data: PrometheusLatency): BucketRow[] {
  const rows: BucketRow[] = [];
  for (const i of data.intervals) {
    const { p50_s, p95_s, p99_s, p95_bucket_low_s: low, p95_bucket_high_s: high } = i;
    if (p50_s == null || p95_s == null || p99_s == null || low == null || high == null) continue;
    rows.push({ t: Date.parse(i.t), p50_s, p95_s, p99_s, low_s: low, high_s: high });
  }
  return rows;
}
