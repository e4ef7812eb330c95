import { ErrorBanner } from "../../components/ErrorBanner";
import { Loading } from "../../components/Spinner";
import { StatCard } from "../../components/StatCard";
import { formatCount, formatCountOf, formatLatency, formatPercent, formatRate, splitUnit } from "../../lib/format";
import { useSummary } from "./queries";
import { sliceQuery } from "./slice";
import styles from "./StatGrid.module.css";
import { WHY } from "./summaryCharts";
import { useDatasetSlice } from "./useSlice";

/** A tab's stat cards for the page's range and filters, recomputed by the API from the
 * request table (the characterization's figures are of the whole log). */
export function SliceStatCards({ datasetId, kind }: { datasetId: number; kind: "traffic" | "latency" }) {
  const [slice] = useDatasetSlice();
  const summary = useSummary(datasetId, true, sliceQuery(slice));
  if (summary.isPending) return <Loading label="Counting the range's requests…" />;
  if (summary.isError) return <ErrorBanner error={summary.error} title="Could not count the range's requests" />;
  const s = summary.data;
  if (kind === "latency") {
    const l = s.latency;
    if (l === null) return <p data-testid="slice-no-latency">No timed request in this range and filters.</p>;
    return (
      <div className={styles.grid} data-testid="slice-latency-cards">
        <StatCard label="p50" {...splitUnit(formatLatency(l.p50_s))} hint={`${formatCountOf(l.count, "timed request")} in the range`} testId="latency-p50" />
        <StatCard label="p90" {...splitUnit(formatLatency(l.p90_s ?? null))} />
        <StatCard label="p95" {...splitUnit(formatLatency(l.p95_s))} testId="latency-p95" />
        <StatCard label="p99" {...splitUnit(formatLatency(l.p99_s))} />
        <StatCard label="max" {...splitUnit(formatLatency(l.max_s))} />
      </div>
    );
  }
  const errors = s.error_rate ?? null;
  return (
    <div className={styles.grid} data-testid="slice-traffic-cards">
      <StatCard label="Requests" value={formatCount(s.request_count)} hint="in the range and filters" testId="traffic-total" />
      <StatCard label="Mean rate" {...splitUnit(formatRate(s.mean_rate_per_s))} hint="requests ÷ the range's seconds" />
      <StatCard label="Peak rate" {...splitUnit(formatRate(s.peak_rate_per_min / 60))} hint="busiest minute" testId="traffic-peak" />
      <StatCard label="Server errors (5xx)" value={errors === null ? null : formatPercent(errors, 2)} why={WHY.status} />
    </div>
  );
}
