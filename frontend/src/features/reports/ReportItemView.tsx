import { CurveChart } from "../../charts/CurveChart";
import { TimeSeriesChart } from "../../charts/TimeSeriesChart";
import { Card } from "../../components/Card";
import { StatCard } from "../../components/StatCard";
import { formatDateTime, splitUnit } from "../../lib/format";
import { chartRows, curveConfig, timeChart, UNIT_FORMAT, yTop } from "./chartShape";
import styles from "./Reports.module.css";
import { KIND_LABELS, type Figure, type ReportChart, type ReportItem } from "./types";

/** A chart of a report (or of a comparison) through the app's chart wrappers. */
export function ReportChartView({ chart, id, chartWidth }: { chart: ReportChart; id: string; chartWidth?: number }) {
  if (chart.x_unit === "time") {
    const { config, rows } = timeChart(chart, id);
    return <TimeSeriesChart config={config} rows={rows} />;
  }
  return <CurveChart config={curveConfig(chart, id)} rows={chartRows(chart)} fixedWidth={chartWidth} yMax={yTop(chart)} />;
}

export function FigureGrid({ figures }: { figures: Figure[] }) {
  return (
    <div className={styles.figures}>
      {figures.map((f) => {
        const { value, unit } = splitUnit(f.value === null ? "—" : UNIT_FORMAT[f.unit](f.value));
        return <StatCard key={f.key} label={f.label} value={value} unit={unit} testId={`figure-${f.key}`} />;
      })}
    </div>
  );
}

export function ReportItemView({ item, chartWidth }: { item: ReportItem; chartWidth?: number }) {
  const subtitle = `${KIND_LABELS[item.kind]} · ${item.source_label} · captured ${formatDateTime(item.captured_at)}`;
  return (
    <Card title={item.title} subtitle={subtitle} testId="report-item">
      <FigureGrid figures={item.figures} />
      <div className={styles.charts}>
        {item.charts.map((c) => (
          <ReportChartView key={c.key} chart={c} id={`item-${item.id}-${c.key}`} chartWidth={chartWidth} />
        ))}
      </div>
      {item.notes.length > 0 && (
        <ul className={styles.warnings} aria-label="Notes from the analysis">
          {item.notes.map((n) => (
            <li key={n}>{n}</li>
          ))}
        </ul>
      )}
      <details className={styles.params}>
        <summary>Parameters that produced it</summary>
        <pre>{JSON.stringify(item.params, null, 2)}</pre>
      </details>
    </Card>
  );
}

/** The notes (rendered safely by the server: no raw HTML, http(s)/mailto links only) and the items. */
export function ReportBody({ notesHtml, items, chartWidth }: { notesHtml: string; items: ReportItem[]; chartWidth?: number }) {
  return (
    <div className={styles.stack}>
      {notesHtml !== "" && (
        <Card>
          {/* Server-rendered by markdown-it with HTML disabled and links restricted; see reports/markdown.py. */}
          <div className={styles.notes} data-testid="report-notes" dangerouslySetInnerHTML={{ __html: notesHtml }} />
        </Card>
      )}
      {items.map((item) => (
        <ReportItemView key={item.id} item={item} chartWidth={chartWidth} />
      ))}
    </div>
  );
}
