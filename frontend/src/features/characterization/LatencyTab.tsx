import { useContext, useMemo, useState } from "react";
import { TimeSeriesChart, type ChartSelect } from "../../charts/TimeSeriesChart";
import { Banner } from "../../components/Banner";
import { Card } from "../../components/Card";
import { NotRecorded } from "../../components/NotRecorded";
import { StatCard } from "../../components/StatCard";
import { ErrorBanner } from "../../components/ErrorBanner";
import { formatCount, formatCountOf, formatLatency, splitUnit } from "../../lib/format";
import styles from "./Characterization.module.css";
import { useDrill } from "../datasets/drill";
import { hasFilter, hasRange, sliceQuery } from "../datasets/slice";
import { SliceStatCards } from "../datasets/SliceStatCards";
import { useDatasetSlice } from "../datasets/useSlice";
import { DatasetIdContext } from "./datasetContext";
import { PathsTable } from "./PathsTable";
import { useSliceLatency } from "./queries";
import type { CharacterizationResult, LatencyPercentiles, LatencyView } from "./result";
import { Segmented } from "./Segmented";
import { latencyChartConfig, latencyRows } from "./shaping";

const OVERALL = "(all requests)";

function PercentileCards({ p }: { p: LatencyPercentiles }) {
  return (
    <div className={styles.grid}>
      <StatCard label="p50" {...splitUnit(formatLatency(p.p50_s))} hint={formatCountOf(p.count, "timed request")} testId="latency-p50" />
      <StatCard label="p90" {...splitUnit(formatLatency(p.p90_s))} />
      <StatCard label="p95" {...splitUnit(formatLatency(p.p95_s))} testId="latency-p95" />
      <StatCard label="p99" {...splitUnit(formatLatency(p.p99_s))} />
      <StatCard label="max" {...splitUnit(formatLatency(p.max_s))} />
    </div>
  );
}

/** Percentiles per bucket, cut to the page's range; under filters, the slice's own series
 * recomputed by the API. A drag zooms it, a click lists the bucket's requests. */
function OverTime({ view, scope }: { view: LatencyView; scope: string }) {
  const [slice, setSlice] = useDatasetSlice();
  const datasetId = useContext(DatasetIdContext);
  const filtered = hasFilter(slice) && datasetId !== null;
  const series = useSliceLatency(datasetId, view.every_s, filtered ? sliceQuery(slice) : null);
  const cols = scope === OVERALL ? view.overall : view.by_class[scope];
  const { from, to } = slice;
  const rows = useMemo(() => {
    if (filtered) return series.data === undefined ? [] : latencyRows(series.data);
    const all = cols === undefined ? [] : latencyRows(cols);
    return all.filter((r) => (from === null || r.t + view.every_s * 1000 > from) && (to === null || r.t < to));
  }, [filtered, series.data, cols, from, to, view.every_s]);
  const timed = filtered ? rows.reduce((n, r) => n + r.count, 0) : 0;
  const scopeText = filtered ? `the ${formatCount(timed)} timed requests the filters keep` : scope === OVERALL ? "all requests" : `class ${scope}`;
  const config = useMemo(() => latencyChartConfig(view.every_s, scopeText), [view.every_s, scopeText]);
  const drill = useDrill();
  const select = useMemo<ChartSelect>(
    () => ({ bucketMs: view.every_s * 1000, onZoom: (a, b) => setSlice({ from: a, to: b }), onReset: () => setSlice({ from: null, to: null }), onPick: drill ?? (() => undefined) }),
    [view.every_s, setSlice, drill],
  );
  return (
    <Card
      testId="latency-over-time"
      actions={
        filtered && series.isPending ? (
          <span className={styles.zoomStatus} role="status" data-testid="latency-slice-loading">
            <span className={styles.zoomSpinner} aria-hidden="true" />
            Recomputing for the filters…
          </span>
        ) : undefined
      }
    >
      {filtered && series.isError ? (
        <ErrorBanner error={series.error} title="Could not recompute the latency for the filters" />
      ) : (
        <TimeSeriesChart config={config} rows={rows} select={select} />
      )}
    </Card>
  );
}

function NoLatency({ paths }: { paths: boolean }) {
  return (
    <Banner tone="info" title="No latency in this log" testId="no-latency">
      <p>
        Percentiles need a response time on each line. Log it at the end of the line (nginx <code>$request_time</code>,
        Apache <code>%D</code>) or upload a latency trace.{paths && " The busiest paths are below."}
      </p>
    </Banner>
  );
}

export function LatencyTab({ result }: { result: CharacterizationResult }) {
  const view = result.display.latency;
  const [scope, setScope] = useState(OVERALL);
  const classes = view === null ? [] : Object.keys(view.by_class);
  const options = [{ value: OVERALL, label: "All requests" }, ...classes.map((c) => ({ value: c, label: c }))];
  const percentiles = scope === OVERALL ? result.latency : result.latency_by_class[scope];
  const paths = result.fields_recorded?.path !== false;
  const [slice] = useDatasetSlice();
  const sliced = hasRange(slice) || hasFilter(slice);
  const datasetId = useContext(DatasetIdContext);
  const filtered = hasFilter(slice) && datasetId !== null;
  return (
    <div className={styles.stack} data-testid="latency-tab">
      {view === null ? (
        <NoLatency paths={paths} />
      ) : (
        <>
          <div className={styles.toolbar}>
            {filtered ? (
              <span className={styles.muted}>Response times of the requests the filters keep, recomputed from the request table.</span>
            ) : (
              <>
                <span className={styles.muted}>Response times seen at the server, per request class.</span>
                <Segmented label="Request class" options={options} value={scope} onChange={setScope} testId="latency-scope" />
              </>
            )}
          </div>
          {sliced && (scope === OVERALL || filtered) && datasetId !== null ? (
            <SliceStatCards datasetId={datasetId} kind="latency" />
          ) : (
            percentiles !== null && percentiles !== undefined && <PercentileCards p={percentiles} />
          )}
          <OverTime view={view} scope={filtered ? OVERALL : scope} />
        </>
      )}
      {paths ? (
        <PathsTable rows={result.display.paths} total={result.requests} timed={view !== null} />
      ) : (
        <NotRecorded title="Busiest paths" why="this log has no paths" testId="paths-not-recorded" />
      )}
    </div>
  );
}
