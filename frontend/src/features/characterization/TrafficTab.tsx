import { useContext, useMemo, useState } from "react";
import { CurveChart } from "../../charts/CurveChart";
import type { CurveChartConfig } from "../../charts/curveConfig";
import { TimeSeriesChart } from "../../charts/TimeSeriesChart";
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
import { useZoomedArrivals } from "./useZoomedArrivals";

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

function ArrivalsCard({ view }: { view: ArrivalView }) {
  const [range, setRange] = useState<IndexRange | null>(null);
  const datasetId = useContext(DatasetIdContext);
  const zoom = useZoomedArrivals(datasetId, view, range);
  return (
    <Card
      actions={
        range !== null && (
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
            <Button variant="secondary" size="small" onClick={() => setRange(null)}>
              Reset zoom
            </Button>
          </div>
        )
      }
    >
      <TimeSeriesChart config={zoom.config} rows={zoom.rows} />
      {zoom.overview.length > 2 && <RangeNavigator rows={zoom.overview} range={range} onChange={setRange} />}
    </Card>
  );
}

const PROFILE_TICKS = [0, 3, 6, 9, 12, 15, 18, 21, 24];

function profileConfig(days: number): CurveChartConfig {
  return {
    id: "chart-daily-profile",
    title: "Daily profile",
    description: `Mean requests per minute at each minute of the day (UTC), averaged over the ${formatCount(days)} ${days === 1 ? "day" : "days"} the log covers.`,
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
  const [everyS, setEveryS] = useState<number>(result.display.default_every_s ?? 60);
  const view = result.display.arrivals[String(everyS)];
  const profile = result.display.daily_profile;
  const profileRows = useMemo(() => (profile === null ? [] : dailyProfileRows(profile.mean_per_min)), [profile]);
  const span = result.fields_recorded?.span_s;
  const options = RESOLUTIONS.map((r) => ({ value: r.every_s, label: r.label }));
  return (
    <div className={styles.stack} data-testid="traffic-tab">
      <div className={styles.toolbar}>
        <span className={styles.muted}>Arrivals per interval, by request class. Drag the handles under the chart to zoom.</span>
        <Segmented label="Resolution" options={options} value={everyS} onChange={setEveryS} testId="resolution" />
      </div>
      {result.display.timestamp_notice && (
        <p className={styles.muted} role="note" data-testid="traffic-timestamp-notice">
          {result.display.timestamp_notice}
        </p>
      )}
      {view !== undefined && (
        <>
          <ArrivalStatsCards view={view} />
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
          <CurveChart config={profileConfig(profile.days)} rows={profileRows} height={240} />
        </Card>
      )}
    </div>
  );
}
