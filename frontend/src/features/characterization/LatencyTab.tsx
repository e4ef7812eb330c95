import { useContext, useMemo, useState } from "react";
import { TimeSeriesChart, type ChartSelect } from "../../charts/TimeSeriesChart";
import { Banner } from "../../components/Banner";
import { Card } from "../../components/Card";
import { NotRecorded } from "../../components/NotRecorded";
import { StatCard } from "../../components/StatCard";
import { formatCountOf, formatLatency, splitUnit } from "../../lib/format";
import styles from "./Characterization.module.css";
import { useDrill } from "../datasets/drill";
import { hasFilter, hasRange } from "../datasets/slice";
import { SliceStatCards } from "../datasets/SliceStatCards";
import { useDatasetSlice } from "../datasets/useSlice";
import { DatasetIdContext } from "./datasetContext";
import { PathsTable } from "./PathsTable";
import type { CharacterizationResult, LatencyPercentiles, LatencyView } from "./result";
import { Segmented } from "./Segmented";
import { latencyChartConfig, latencyRows, MAX_DOTTED_BUCKETS, withGaps } from "./shaping";

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

/** Percentiles per bucket, cut to the page's range (under filters, of the filters' own
 * characterization). A drag zooms it, a click lists the bucket's requests. */
function OverTime({ view, scope, filtered }: { view: LatencyView; scope: string; filtered: boolean }) {
  const [slice, setSlice] = useDatasetSlice();
  const cols = scope === OVERALL ? view.overall : view.by_class[scope];
  const { from, to } = slice;
  const rows = useMemo(() => {
    const all = cols === undefined ? [] : latencyRows(cols);
    return all.filter((r) => (from === null || r.t + view.every_s * 1000 > from) && (to === null || r.t < to));
  }, [cols, from, to, view.every_s]);
  const scopeText = scope === OVERALL ? (filtered ? "the requests the filters keep" : "all requests") : `class ${scope}${filtered ? " of the requests the filters keep" : ""}`;
  const dots = rows.length <= MAX_DOTTED_BUCKETS;
  const config = useMemo(() => latencyChartConfig(view.every_s, scopeText, dots), [view.every_s, scopeText, dots]);
  const drawn = useMemo(() => withGaps(rows, view.every_s), [rows, view.every_s]);
  const drill = useDrill();
  const select = useMemo<ChartSelect>(
    () => ({ bucketMs: view.every_s * 1000, onZoom: (a, b) => setSlice({ from: a, to: b }), onReset: () => setSlice({ from: null, to: null }), onPick: drill ?? (() => undefined) }),
    [view.every_s, setSlice, drill],
  );
  return (
    <Card testId="latency-over-time">
      <TimeSeriesChart config={config} rows={drawn} select={select} />
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

/** Whose paths the table lists: a range does not cut it (it is the characterization's). */
function pathsScope(filtered: boolean, ranged: boolean): string | undefined {
  if (filtered) return `Of the requests the filters keep${ranged ? ", over the whole log: the range does not cut this table" : ""}.`;
  return ranged ? "Of the whole log: the range does not cut this table." : undefined;
}

export function LatencyTab({ result }: { result: CharacterizationResult }) {
  const view = result.display.latency;
  const [scope, setScope] = useState(OVERALL);
  const classes = view === null ? [] : Object.keys(view.by_class);
  const options = [{ value: OVERALL, label: "All requests" }, ...classes.map((c) => ({ value: c, label: c }))];
  const percentiles = scope === OVERALL ? result.latency : result.latency_by_class[scope];
  const paths = result.fields_recorded?.path !== false;
  const [slice] = useDatasetSlice();
  const filtered = hasFilter(slice); // `result` is then the filters' own characterization
  const sliced = hasRange(slice) || filtered;
  const datasetId = useContext(DatasetIdContext);
  return (
    <div className={styles.stack} data-testid="latency-tab">
      {view === null ? (
        <NoLatency paths={paths} />
      ) : (
        <>
          <div className={styles.toolbar}>
            <span className={styles.muted}>
              {filtered ? "Response times of the requests the filters keep (their own characterization), per request class." : "Response times seen at the server, per request class."}
            </span>
            <Segmented label="Request class" options={options} value={scope} onChange={setScope} testId="latency-scope" />
          </div>
          {sliced && scope === OVERALL && datasetId !== null ? (
            <SliceStatCards datasetId={datasetId} kind="latency" />
          ) : (
            percentiles !== null && percentiles !== undefined && (
              <>
                {hasRange(slice) && (
                  <p className={styles.muted} data-testid="latency-class-whole">
                    Class {scope}'s figures are {filtered ? "the filtered requests'" : "the whole log's"}: the range cuts the chart only.
                  </p>
                )}
                <PercentileCards p={percentiles} />
              </>
            )
          )}
          <OverTime view={view} scope={scope} filtered={filtered} />
        </>
      )}
      {paths ? (
        <PathsTable rows={result.display.paths} total={result.requests} timed={view !== null} scope={pathsScope(filtered, hasRange(slice))} />
      ) : (
        <NotRecorded title="Busiest paths" why="this log has no paths" testId="paths-not-recorded" />
      )}
    </div>
  );
}
