import { useQuery } from "@tanstack/react-query";
import { useMemo } from "react";
import { TimeSeriesChart } from "../../charts/TimeSeriesChart";
import type { TimeChartConfig } from "../../charts/config";
import { Card } from "../../components/Card";
import { ErrorBanner } from "../../components/ErrorBanner";
import { Loading } from "../../components/Spinner";
import { formatDuration, formatLatency } from "../../lib/format";
import { datasetLatency } from "../sources/api";
import { bucketRows, type BucketRow } from "./bucketRows";
import styles from "./Characterization.module.css";

function chartConfig(stepS: number): TimeChartConfig<BucketRow> {
  const every = stepS === 60 ? "minute" : formatDuration(stepS);
  return {
    id: "chart-prometheus-latency",
    title: `Latency percentiles per ${every}, with the p95's histogram bucket`,
    description: `p50, p95 and p99 response time per ${every}, interpolated within histogram buckets; dashed lines mark the bounds of the bucket the p95 lies in. Times in UTC.`,
    kind: "line",
    time: (r) => r.t,
    unit: formatLatency,
    axisUnit: (v) => (v === 0 ? "0" : formatLatency(v)),
    yLabel: "latency",
    series: [
      { key: "p50_s", label: "p50", color: "chart-band" },
      { key: "p95_s", label: "p95", color: "chart-model" },
      { key: "p99_s", label: "p99", color: "chart-knee" },
      { key: "low_s", label: "p95 bucket, lower bound", color: "chart-model", faint: true },
      { key: "high_s", label: "p95 bucket, upper bound", color: "chart-model", faint: true },
    ],
  };
}

/** The latency of a dataset a Prometheus source keeps: percentiles from histogram buckets, shown with the bucket they lie in. */
export function PrometheusLatency({ datasetId }: { datasetId: number }) {
  const latency = useQuery({ queryKey: ["sources", "prometheus", "latency", datasetId], queryFn: () => datasetLatency(datasetId) });
  const rows = useMemo(() => (latency.data === undefined ? [] : bucketRows(latency.data)), [latency.data]);
  const config = useMemo(() => chartConfig(latency.data?.step_s ?? 60), [latency.data?.step_s]);
  if (latency.isPending) return <Loading label="Loading the latency percentiles…" />;
  if (latency.isError) return <ErrorBanner error={latency.error} title="Could not load the latency percentiles" />;
  const bounds = latency.data.bucket_bounds_s;
  return (
    <Card title="Latency" subtitle="From the source's latency histogram">
      <p className={styles.muted} data-testid="bucket-note">
        Note: {latency.data.note}. Each percentile lies between two bucket bounds; its place inside the bucket is an assumption.
      </p>
      <TimeSeriesChart config={config} rows={rows} />
      <p className={styles.muted} data-testid="bucket-bounds">
        Bucket bounds: {bounds.length === 0 ? "none" : bounds.map((b) => formatLatency(b)).join(", ")}
      </p>
    </Card>
  );
}
