/** The Overview and Traffic tabs of a dataset a Prometheus source keeps: read from the
 * source's interval table over the page's range, percentiles interpolated within histogram
 * buckets, and what a counter and a histogram cannot give said as "not recorded". */
import { useCallback, useMemo } from "react";
import { Banner } from "../../components/Banner";
import { Card } from "../../components/Card";
import { ErrorBanner } from "../../components/ErrorBanner";
import { NotRecorded } from "../../components/NotRecorded";
import { Loading } from "../../components/Spinner";
import { StatCard } from "../../components/StatCard";
import { TimeSeriesChart, type ChartSelect } from "../../charts/TimeSeriesChart";
import type { TimeChartConfig } from "../../charts/config";
import type { ColorToken } from "../../charts/tokens";
import { formatCount, formatCountOf, formatDateTime, formatDuration, formatLatency, formatPercent, formatRate, splitUnit } from "../../lib/format";
import gridStyles from "../datasets/StatGrid.module.css";
import { sliceQuery } from "../datasets/slice";
import { useDatasetSlice } from "../datasets/useSlice";
import type { ClassTraffic, PrometheusTraffic } from "./api";
import { classRows, MAX_CLASSES, shownClasses, type ClassRow } from "./trafficRows";
import { usePrometheusTraffic } from "./queries";
import styles from "./Sources.module.css";

const COLORS: ColorToken[] = ["chart-requests", "chart-model", "chart-knee", "chart-throughput", "chart-breaking", "chart-latency", "chart-sla"];

function every(seconds: number): string {
  return seconds === 60 ? "minute" : formatDuration(seconds);
}

function chart(id: string, title: string, description: string, classes: ClassTraffic[], unit: (v: number) => string, yLabel: string): TimeChartConfig<ClassRow> {
  return {
    id,
    title,
    description,
    kind: "line",
    time: (r) => r.t,
    unit,
    yLabel,
    series: classes.map((c, j) => ({ key: `c${j}`, label: c.name === "all" ? "all requests" : c.name, color: COLORS[j % COLORS.length] ?? "chart-requests" })),
  };
}

/** The page's range as the API's query, with drag-to-zoom on the charts. */
function useRange() {
  const [slice, setSlice] = useDatasetSlice();
  const { from, to } = sliceQuery(slice);
  const zoom = useCallback((fromMs: number, toMs: number) => setSlice({ from: fromMs, to: toMs }), [setSlice]);
  const reset = useCallback(() => setSlice({ from: null, to: null }), [setSlice]);
  return { range: { ...(from === undefined ? {} : { from }), ...(to === undefined ? {} : { to }) }, zoom, reset };
}

function Gate({ datasetId, children }: { datasetId: number; children: (traffic: PrometheusTraffic, select: ChartSelect) => React.ReactNode }) {
  const { range, zoom, reset } = useRange();
  const traffic = usePrometheusTraffic(datasetId, range);
  const select = useMemo<ChartSelect>(() => ({ bucketMs: (traffic.data?.interval_s ?? 60) * 1000, onZoom: zoom, onPick: zoom, onReset: reset }), [traffic.data?.interval_s, zoom, reset]);
  if (traffic.isPending) return <Loading label="Loading the source's intervals…" />;
  if (traffic.isError) return <ErrorBanner error={traffic.error} title="Could not load the source's intervals" />;
  if (traffic.data.start === null) {
    return (
      <Banner tone="info" title="No intervals in this range" testId="prometheus-empty-range">
        The source imported no interval starting in this range. Widen the range, or import again from the Sources page.
      </Banner>
    );
  }
  return <div aria-busy={traffic.isPlaceholderData}>{children(traffic.data, select)}</div>;
}

function latencyCard(label: string, value: number | null | undefined, hint: string, testId: string) {
  return value == null ? (
    <StatCard label={label} value={null} why="the source has no latency histogram, or it observed nothing here" testId={testId} />
  ) : (
    <StatCard label={label} {...splitUnit(formatLatency(value))} hint={hint} testId={testId} />
  );
}

function bucketText(c: ClassTraffic): string {
  const low = c.p95_bucket_low_s;
  if (low == null) return "interpolated within buckets";
  const high = c.p95_bucket_high_s;
  return `interpolated within buckets: in ${formatLatency(low)} – ${high == null ? "+Inf" : formatLatency(high)}`;
}

function OverviewCards({ traffic: t, all }: { traffic: PrometheusTraffic; all: ClassTraffic }) {
  const gaps = all.gap_intervals > 0 ? ` · ${formatCountOf(all.gap_intervals, "gap")}` : "";
  const share = all.error_share;
  return (
    <div className={gridStyles.grid}>
      <StatCard label="Requests" value={formatCount(all.requests)} hint={`${formatCountOf(all.intervals, "interval")} of ${every(t.step_s)}${gaps}`} testId="stat-requests" />
      <StatCard label="Time span" value={formatDuration(t.span_s)} hint={`${formatDateTime(t.start)} → ${formatDateTime(t.end)}`} testId="stat-span" />
      <StatCard label="Mean rate" {...splitUnit(formatRate(all.rate_per_s_mean))} hint="requests ÷ the seconds observed" testId="stat-mean-rate" />
      <StatCard label="Peak rate" {...splitUnit(formatRate(all.rate_per_s_peak))} hint={`busiest ${every(t.step_s)}`} testId="stat-peak-rate" />
      {share == null ? (
        <StatCard label="Errors" value={null} why={all.errors == null ? "the source has no error label" : "no requests in this range"} testId="stat-error-rate" />
      ) : (
        <StatCard label="Errors" value={formatPercent(share, 2)} hint={`${formatCount(all.errors ?? 0)} by the source's error label`} tone={share >= 0.01 ? "danger" : "neutral"} testId="stat-error-rate" />
      )}
      <StatCard label="Client errors (4xx)" value={null} why={t.not_recorded.status_mix} testId="stat-client-error-rate" />
      {latencyCard("Latency p50", all.latency_p50_s, "median, interpolated within buckets", "stat-latency-p50")}
      {latencyCard("Latency p95", all.latency_p95_s, bucketText(all), "stat-latency-p95")}
      {latencyCard("Latency p99", all.latency_p99_s, "interpolated within buckets", "stat-latency-p99")}
      <StatCard label="Latency max" value={null} why={t.not_recorded.latency_max_s} testId="stat-latency-max" />
      <StatCard label="Data volume" value={null} why={t.not_recorded.bytes} testId="stat-bytes" />
      <StatCard label="Clients" value={null} why={t.not_recorded.clients} testId="stat-clients" />
    </div>
  );
}

function ClassTable({ classes }: { classes: ClassTraffic[] }) {
  return (
    <Card title="Per class" subtitle="Each class' figures over the range; p95 interpolated within its histogram's buckets">
      <div className={styles.tableWrap}>
        <table className={styles.table} data-testid="prometheus-classes">
          <thead>
            <tr>
              <th scope="col">Class</th>
              <th scope="col">Requests</th>
              <th scope="col">Mean rate</th>
              <th scope="col">Peak rate</th>
              <th scope="col">Errors</th>
              <th scope="col">p95</th>
            </tr>
          </thead>
          <tbody>
            {classes.map((c) => (
              <tr key={c.name}>
                <th scope="row">{c.name}</th>
                <td>{formatCount(c.requests)}</td>
                <td>{formatRate(c.rate_per_s_mean)}</td>
                <td>{formatRate(c.rate_per_s_peak)}</td>
                <td>{c.error_share == null ? "not recorded" : formatPercent(c.error_share, 2)}</td>
                <td>{c.latency_p95_s == null ? "not recorded" : formatLatency(c.latency_p95_s)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </Card>
  );
}

/** The Overview tab of a Prometheus dataset: the range's figures from the source's intervals. */
export function PrometheusOverview({ datasetId }: { datasetId: number }) {
  return (
    <Gate datasetId={datasetId}>
      {(traffic) => {
        const [all, ...classes] = traffic.classes;
        if (all === undefined) return null;
        return (
          <div className={styles.page} data-testid="prometheus-overview">
            <p className={styles.muted} data-testid="prometheus-note">
              From the source&apos;s {every(traffic.step_s)} intervals: {traffic.note}. Figures a request counter and a latency histogram cannot give say
              &ldquo;not recorded&rdquo;.
            </p>
            <OverviewCards traffic={traffic} all={all} />
            {classes.length > 0 && <ClassTable classes={traffic.classes} />}
          </div>
        );
      }}
    </Gate>
  );
}

/** The Traffic tab of a Prometheus dataset: request rate and error share per interval, per class when the source splits classes. */
export function PrometheusTrafficCharts({ datasetId }: { datasetId: number }) {
  return (
    <Gate datasetId={datasetId}>
      {(traffic, select) => {
        const classes = shownClasses(traffic);
        const per = every(traffic.interval_s);
        const split = classes.length > 1 ? ", per class" : "";
        const rates = chart("chart-prometheus-rate", `Request rate per ${per}${split}`, `Requests per second in each ${per}${split}. Times in UTC.`, classes, formatRate, "req/s");
        const errorsRecorded = classes[0]?.errors != null;
        const errors = chart("chart-prometheus-errors", `Error share per ${per}${split}`, `Errors as a share of requests in each ${per}${split}. Times in UTC.`, classes, (v) => formatPercent(v, 2), "errors");
        const hidden = traffic.classes.length - classes.length;
        return (
          <div className={styles.page} data-testid="prometheus-traffic">
            <p className={styles.muted}>
              Drag across a chart to zoom to that time. Intervals no sample covers are gaps in the lines, never drawn as zero.
              {hidden > 0 && ` The ${MAX_CLASSES} busiest of ${traffic.classes.length - 1} classes are drawn.`}
            </p>
            <Card>
              <TimeSeriesChart config={rates} rows={classRows(classes, "rate_per_s")} select={select} />
            </Card>
            {errorsRecorded ? (
              <Card>
                <TimeSeriesChart config={errors} rows={classRows(classes, "error_share")} select={select} />
              </Card>
            ) : (
              <NotRecorded title="Error share" why="the source has no error label" testId="prometheus-errors-not-recorded" />
            )}
          </div>
        );
      }}
    </Gate>
  );
}

/** A Prometheus dataset's size in the page header: its intervals, not bytes (it has no file). */
export function IntervalCount({ datasetId, ready }: { datasetId: number; ready: boolean }) {
  const traffic = usePrometheusTraffic(datasetId, {}, ready);
  const all = traffic.data?.classes[0];
  if (ready && traffic.data === undefined) return null;
  if (all === undefined) return <span data-testid="dataset-header-intervals">no intervals yet</span>;
  return (
    <span data-testid="dataset-header-intervals">
      {formatCountOf(all.intervals + all.gap_intervals, "interval")} of {every(traffic.data?.step_s ?? 60)}
    </span>
  );
}

const LOG_TABS: Record<string, string> = {
  workload: "The workload model (sessions, think times, request classes)",
  rules: "Request classification rules",
  parse: "The parse report",
  concurrency: "Requests in flight",
};

/** A tab that needs a request log, on a Prometheus dataset: why it has nothing to show. */
export function NeedsALog({ tab }: { tab: string }) {
  return (
    <Banner tone="info" title="Needs a request log" testId="needs-a-log">
      <p>
        {LOG_TABS[tab] ?? "This view"} needs a request log: this dataset holds a Prometheus source&apos;s intervals (request counts and latency
        histograms per step), not requests. The Overview, Traffic, Latency, Capacity, Forecast and Alerts tabs read those intervals.
      </p>
    </Banner>
  );
}
