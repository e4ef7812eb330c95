import { colorVar } from "../../charts/tokens";
import { Card } from "../../components/Card";
import { Table, type Column } from "../../components/Table";
import { formatCount, formatLatency, formatPercent } from "../../lib/format";
import styles from "./Characterization.module.css";
import type { PathRow } from "./result";

function InlineBar({ fraction, text, color }: { fraction: number; text: string; color: "chart-requests" | "chart-model" }) {
  return (
    <span className={styles.inlineBar}>
      {text}
      <span className={styles.inlineBarTrack} aria-hidden="true">
        <span className={styles.inlineBarFill} style={{ display: "block", width: `${Math.min(1, fraction) * 100}%`, background: colorVar(color) }} />
      </span>
    </span>
  );
}

function columns(rows: PathRow[], total: number, timed: boolean): Column<PathRow>[] {
  const maxP95 = Math.max(...rows.map((r) => r.p95_s ?? 0), 0);
  const busiest = Math.max(...rows.filter((r) => r.path !== "other").map((r) => r.requests), 1);
  const cols: Column<PathRow>[] = [
    { key: "path", header: "Path", render: (r) => <span className={styles.path} title={r.path}>{r.path === "other" ? <em>all other paths</em> : r.path}</span>, mono: true },
    {
      key: "requests",
      header: "Requests",
      align: "right",
      render: (r) => <InlineBar fraction={r.requests / busiest} text={`${formatCount(r.requests)} (${formatPercent(total > 0 ? r.requests / total : 0)})`} color="chart-requests" />,
    },
  ];
  if (!timed) return cols;
  return [
    ...cols,
    { key: "p50", header: "p50", align: "right", render: (r) => formatLatency(r.p50_s) },
    {
      key: "p95",
      header: "p95",
      align: "right",
      render: (r) => <InlineBar fraction={maxP95 > 0 ? (r.p95_s ?? 0) / maxP95 : 0} text={formatLatency(r.p95_s)} color="chart-model" />,
    },
    { key: "p99", header: "p99", align: "right", render: (r) => formatLatency(r.p99_s) },
    { key: "max", header: "max", align: "right", render: (r) => formatLatency(r.max_s) },
  ];
}

/** The busiest paths (the rest as "all other paths") with their latency percentiles; `scope`
 * says whose requests they are when not plainly the whole log's. */
export function PathsTable({ rows, total, timed, scope }: { rows: PathRow[]; total: number; timed: boolean; scope?: string }) {
  const named = rows.filter((r) => r.path !== "other").length;
  const subtitle = timed
    ? `The ${formatCount(named)} busiest paths by requests (bars relative to the busiest), with response-time percentiles (p95 bars relative to the slowest path).`
    : `The ${formatCount(named)} busiest paths by requests (bars relative to the busiest). This log has no latency field, so no percentiles.`;
  return (
    <Card title="Top paths" subtitle={scope === undefined ? subtitle : `${scope} ${subtitle}`} flush testId="paths-table">
      <Table columns={columns(rows, total, timed)} rows={rows} rowKey={(r) => r.path} caption="Top paths by requests" />
    </Card>
  );
}
