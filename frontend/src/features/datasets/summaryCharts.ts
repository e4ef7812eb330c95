/** Chart configs for the traffic summary: what is plotted, with which token and unit. */
import type { SeriesPoint, TrafficSummary } from "../../api/models";
import type { SeriesConfig, TimeChartConfig } from "../../charts/config";
import { formatCompact, formatCount, formatDuration, formatRatePerMin } from "../../lib/format";

export function bucketLabel(bucketS: number): string {
  return bucketS === 60 ? "minute" : formatDuration(bucketS);
}

export function requestsChartConfig(bucketS: number): TimeChartConfig<SeriesPoint> {
  return {
    id: "chart-requests",
    title: "Requests per minute",
    description: `Request rate over time, averaged over ${bucketLabel(bucketS)} buckets. Times in UTC.`,
    kind: "area",
    time: (p) => p.t,
    unit: formatRatePerMin,
    axisUnit: formatCompact,
    yLabel: "req/min",
    series: [{ key: "rate_per_min", label: "Requests per minute", color: "chart-requests" }],
  };
}

/**
 * Bottom to top: errors sit on the baseline where their size is easy to read, and the
 * dominant 2xx class on top outlines the total.
 */
const STATUS_SERIES: (SeriesConfig<SeriesPoint> & { cls: string })[] = [
  { key: "s5xx", label: "5xx server error", color: "status-5xx", cls: "5xx" },
  { key: "s4xx", label: "4xx client error", color: "status-4xx", cls: "4xx" },
  { key: "s3xx", label: "3xx redirect", color: "status-3xx", cls: "3xx" },
  { key: "s1xx", label: "1xx informational", color: "status-1xx", cls: "1xx" },
  { key: "s2xx", label: "2xx success", color: "status-2xx", cls: "2xx" },
];

/** Why a summary figure is missing: the field the log does not record. */
export const WHY = {
  status: "this log has no status codes",
  bytes: "this log has no response sizes",
} as const;

/** Status classes stacked; classes the log never returned are left out of the legend. */
export function statusChartConfig(
  bucketS: number,
  statusCounts: NonNullable<TrafficSummary["status_counts"]>,
): TimeChartConfig<SeriesPoint> {
  const present = STATUS_SERIES.filter((s) => s.cls === "2xx" || (statusCounts[s.cls] ?? 0) > 0);
  return {
    id: "chart-status",
    title: "Responses by status class",
    description: `Responses per ${bucketLabel(bucketS)} by HTTP status class, stacked. Times in UTC.`,
    kind: "stacked-area",
    time: (p) => p.t,
    unit: (v) => `${formatCount(v)} responses`,
    axisUnit: formatCompact,
    yLabel: `per ${bucketLabel(bucketS)}`,
    series: present.map(({ key, label, color }) => ({ key, label, color })),
  };
}
