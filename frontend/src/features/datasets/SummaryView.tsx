import { useMemo } from "react";
import type { TrafficSummary } from "../../api/models";
import { Banner } from "../../components/Banner";
import { Card } from "../../components/Card";
import { NotRecorded } from "../../components/NotRecorded";
import { TimeSeriesChart, type ChartSelect } from "../../charts/TimeSeriesChart";
import { formatDateTime, formatPercent } from "../../lib/format";
import styles from "./DatasetDetail.module.css";
import { useDrill } from "./drill";
import { RejectsCard } from "./RejectsCard";
import { StatGrid } from "./StatGrid";
import { requestsChartConfig, statusChartConfig, WHY } from "./summaryCharts";

function FormatCard({ summary: s }: { summary: TrafficSummary }) {
  return (
    <Card title="Format and notes">
      <dl className={styles.facts}>
        <dt>Detected format</dt>
        <dd>
          {s.format} ({formatPercent(s.format_confidence, 0)} of sampled lines matched)
        </dd>
        <dt>First request</dt>
        <dd>{formatDateTime(s.first_ts)}</dd>
        <dt>Last request</dt>
        <dd>{formatDateTime(s.last_ts)}</dd>
      </dl>
      {(s.notes.length > 0 || s.timestamp_notice) && (
        <ul className={styles.notes}>
          {s.timestamp_notice && <li data-testid="timestamp-notice">{s.timestamp_notice}</li>}
          {s.notes.map((n) => (
            <li key={n}>{n}</li>
          ))}
        </ul>
      )}
    </Card>
  );
}

interface SummaryViewProps {
  summary: TrafficSummary;
  /** A drag across a chart zooms the page's range to it (none: the charts take no drags). */
  onZoom?: (fromMs: number, toMs: number) => void;
  /** Escape on a chart shows the whole range again. */
  onReset?: () => void;
  /** The summary is of a slice (range or filters), not the whole log. */
  sliced?: boolean;
  /** A newer slice's summary is loading; this one stays on screen meanwhile. */
  updating?: boolean;
}

export function SummaryView({ summary, onZoom, onReset, sliced = false, updating = false }: SummaryViewProps) {
  const requests = useMemo(() => requestsChartConfig(summary.bucket_s), [summary.bucket_s]);
  const counts = summary.status_counts ?? null;
  const status = useMemo(() => (counts === null ? null : statusChartConfig(summary.bucket_s, counts)), [summary.bucket_s, counts]);
  const drill = useDrill();
  const select = useMemo<ChartSelect | undefined>(
    () => (onZoom === undefined ? undefined : { bucketMs: summary.bucket_s * 1000, onZoom, onReset, onPick: drill ?? (() => undefined) }),
    [onZoom, onReset, drill, summary.bucket_s],
  );
  return (
    <div className={styles.stack} aria-busy={updating} data-testid="summary-view">
      {select !== undefined && (
        <p className={styles.hint}>
          Drag across a chart to zoom to that time; click a bucket to list its requests.{updating && " Updating…"}
        </p>
      )}
      <StatGrid summary={summary} sliced={sliced} />
      {summary.latency === null && (
        <Banner tone="info" title="No latency in this log" testId="no-latency">
          <p>
            This log has no latency field, so latency percentiles cannot be shown. Log the response time at the end of
            each line (nginx <code>$request_time</code>, Apache <code>%D</code>) to get them.
          </p>
        </Banner>
      )}
      <div className={styles.charts}>
        <Card>
          <TimeSeriesChart config={requests} rows={summary.series} select={select} />
        </Card>
        {status === null ? (
          <NotRecorded title="Responses by status class" why={WHY.status} testId="chart-status-not-recorded" />
        ) : (
          <Card>
            <TimeSeriesChart config={status} rows={summary.series} select={select} />
          </Card>
        )}
      </div>
      <RejectsCard summary={summary} />
      <FormatCard summary={summary} />
    </div>
  );
}
