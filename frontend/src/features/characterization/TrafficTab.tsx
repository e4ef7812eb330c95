import { useContext, useEffect, useMemo, useRef, useState } from "react";
import { CurveChart } from "../../charts/CurveChart";
import type { CurveChartConfig } from "../../charts/curveConfig";
import { TimeSeriesChart, type ChartSelect } from "../../charts/TimeSeriesChart";
import { Button } from "../../components/Button";
import { Card } from "../../components/Card";
import { NotRecorded } from "../../components/NotRecorded";
import { StatCard } from "../../components/StatCard";
import { formatCount, formatDecimal, formatDuration, formatRate } from "../../lib/format";
import styles from "./Characterization.module.css";
import { DatasetIdContext } from "./datasetContext";
import { RangeNavigator, type IndexRange } from "./RangeNavigator";
import type { ArrivalView, CharacterizationResult } from "./result";
import { Segmented } from "./Segmented";
import { bucketName, dailyProfileRows, formatHourOfDay, RESOLUTIONS } from "./shaping";
import { useDebounced } from "../../lib/useDebounced";
import { useDrill } from "../datasets/drill";
import { hasFilter, hasRange, sliceQuery } from "../datasets/slice";
import { SliceStatCards } from "../datasets/SliceStatCards";
import { useDatasetSlice } from "../datasets/useSlice";
import { useZoomedArrivals, ZOOM_SETTLE_MS } from "./useZoomedArrivals";
import { indexRange } from "./zoom";

function ArrivalStatsCards({ view }: { view: ArrivalView }) {
  const s = view.stats;
  const bucket = bucketName(view.every_s);
  const perS = (count: number) => formatRate(count / view.every_s);
  const meanPerS = s.mean_per_s ?? s.mean / view.every_s;
  return (
    <div className={styles.grid}>
      <StatCard label="Requests" value={formatCount(s.total)} hint={`${formatCount(s.buckets)} buckets of ${bucket}`} testId="traffic-total" />
      <StatCard label={`Peak per ${bucket}`} value={formatCount(s.peak)} unit="req" hint={s.peak_per_s !== undefined ? formatRate(s.peak_per_s) : perS(s.peak)} testId="traffic-peak" />
      <StatCard label={`Mean per ${bucket}`} value={formatDecimal(s.mean, 2)} unit="req" hint={formatRate(meanPerS)} />
      <StatCard label={`Trough per ${bucket}`} value={formatCount(s.trough)} unit="req" hint={perS(s.trough)} />
      <StatCard label="Peak-to-mean" value={formatDecimal(s.peak_to_mean, 2)} unit="×" hint={`at ${bucket} resolution`} testId="traffic-peak-to-mean" />
    </div>
  );
}

/** The rows' range as [from, to) ms: the first row's start to the end of the last row's bucket. */
function rangeMs(view: ArrivalView, range: IndexRange): { from: number; to: number } | null {
  const first = view.t_ms[Math.min(range.start, range.end)];
  const last = view.t_ms[Math.max(range.start, range.end)];
  return first === undefined || last === undefined ? null : { from: first, to: last + view.every_s * 1000 };
}

/** The arrivals chart, zoomed to the page's range (the URL's); dragging the navigator's
 * handles or across the chart sets the range once the drag settles. */
function ArrivalsCard({ view }: { view: ArrivalView }) {
  const [slice, setSlice] = useDatasetSlice();
  const fromUrl = useMemo(() => indexRange(view.t_ms, view.every_s, slice.from, slice.to), [view, slice.from, slice.to]);
  const [dragged, setDragged] = useState<IndexRange | null | undefined>(undefined);
  const settled = useDebounced(dragged, ZOOM_SETTLE_MS * 2);
  const pushed = useRef<IndexRange | null | undefined>(undefined);
  useEffect(() => {
    if (settled === undefined || settled === pushed.current) return;
    pushed.current = settled; // once per drag: each settled drag is one entry of the history
    const ms = settled === null ? null : rangeMs(view, settled);
    setSlice({ from: ms?.from ?? null, to: ms?.to ?? null });
    setDragged(undefined);
  }, [settled, view, setSlice]);
  const range = dragged === undefined ? fromUrl : dragged;
  const datasetId = useContext(DatasetIdContext);
  const filter = useMemo(() => {
    return sliceQuery({ ...slice, from: null, to: null });
  }, [slice]);
  const zoom = useZoomedArrivals(datasetId, view, range, filter);
  const drill = useDrill();
  const select = useMemo<ChartSelect>(
    () => ({ bucketMs: view.every_s * 1000, onZoom: (from, to) => setSlice({ from, to }), onReset: () => setSlice({ from: null, to: null }), onPick: drill ?? (() => undefined) }),
    [view.every_s, setSlice, drill],
  );
  return (
    <Card
      actions={
        (range !== null || Object.keys(filter).length > 0) && (
          <div className={styles.zoomActions}>
            {zoom.loading && (
              <span className={styles.zoomStatus} role="status" data-testid="zoom-loading">
                <span className={styles.zoomSpinner} aria-hidden="true" />
                Loading full resolution…
              </span>
            )}
            {zoom.fullResolution && (
              <span className={styles.zoomStatus} data-testid="zoom-full-resolution">
                {zoom.windowThinned ? "Recounted (peaks kept)" : "Full resolution: every bucket"}
              </span>
            )}
            {zoom.error !== null && (
              <span className={styles.zoomStatus} role="alert">
                Could not load the full resolution: showing the overview
              </span>
            )}
            {range !== null && (
              <Button variant="secondary" size="small" onClick={() => setSlice({ from: null, to: null })}>
                Reset zoom
              </Button>
            )}
          </div>
        )
      }
    >
      <TimeSeriesChart config={zoom.config} rows={zoom.rows} select={select} />
      {zoom.overview.length > 2 && <RangeNavigator rows={zoom.overview} range={range} onChange={setDragged} />}
    </Card>
  );
}

const PROFILE_TICKS = [0, 3, 6, 9, 12, 15, 18, 21, 24];

/** The profile counts every request of the log or, under filters, the ones the filters keep;
 * a range does not cut it (it averages whole days): said so. */
function profileConfig(days: number, filtered: boolean, ranged: boolean): CurveChartConfig {
  const over = `averaged over the ${formatCount(days)} ${days === 1 ? "day" : "days"} ${filtered ? "they span" : "the log covers"}`;
  const title = filtered ? "Daily profile of the requests the filters keep" : ranged ? "Daily profile of the whole log" : "Daily profile";
  const counted = filtered ? "Mean requests the filters keep per minute" : "Mean requests per minute";
  const note = ranged ? (filtered ? ": whatever the range" : ": every request, whatever the range") : "";
  return {
    id: "chart-daily-profile",
    title,
    description: `${counted} at each minute of the day (UTC), ${over}${note}.`,
    xLabel: "time of day (UTC)",
    yLabel: "req/min",
    axes: "data",
    xUnit: formatHourOfDay,
    yUnit: (v) => `${formatDecimal(v, 2)} req/min`,
    yAxisUnit: (v) => formatDecimal(v, 1),
    xTicks: PROFILE_TICKS,
    series: [{ key: "mean", label: "Mean requests per minute", color: "chart-requests", fill: true }],
    marks: [],
  };
}

export function TrafficTab({ result }: { result: CharacterizationResult }) {
  const [slice, setSlice] = useDatasetSlice();
  const fallback = result.display.default_every_s ?? 60;
  const everyS = slice.res !== null && String(slice.res) in result.display.arrivals ? slice.res : fallback;
  const setEveryS = (res: number) => setSlice({ res: res === fallback ? null : res });
  const view = result.display.arrivals[String(everyS)];
  const filtered = hasFilter(slice); // `result` is then the filters' own characterization
  const sliced = hasRange(slice) || filtered;
  const datasetId = useContext(DatasetIdContext);
  const profile = result.display.daily_profile;
  const profileRows = useMemo(() => (profile === null ? [] : dailyProfileRows(profile.mean_per_min)), [profile]);
  const span = result.fields_recorded?.span_s;
  const options = RESOLUTIONS.map((r) => ({ value: r.every_s, label: r.label }));
  return (
    <div className={styles.stack} data-testid="traffic-tab">
      <div className={styles.toolbar}>
        <span className={styles.muted}>
          {filtered ? "Arrivals per interval of the requests the filters keep (their own characterization), by request class." : "Arrivals per interval, by request class."} Drag
          across the chart or the handles under it to zoom; click a bucket to list its requests.
        </span>
        <Segmented label="Resolution" options={options} value={everyS} onChange={setEveryS} testId="resolution" />
      </div>
      {result.display.timestamp_notice && (
        <p className={styles.muted} role="note" data-testid="traffic-timestamp-notice">
          {result.display.timestamp_notice}
        </p>
      )}
      {view !== undefined && (
        <>
          {sliced && datasetId !== null ? <SliceStatCards datasetId={datasetId} kind="traffic" /> : <ArrivalStatsCards view={view} />}
          <ArrivalsCard key={everyS} view={view} />
        </>
      )}
      {profile === null ? (
        <NotRecorded
          title="Daily profile"
          why={`the log covers ${span === undefined ? "less than a day" : formatDuration(span)}; a profile over the hours of a day needs at least a day`}
          testId="chart-daily-profile-not-recorded"
        />
      ) : (
        <Card>
          <CurveChart config={profileConfig(profile.days, filtered, hasRange(slice))} rows={profileRows} height={240} />
        </Card>
      )}
    </div>
  );
}
