import type { Reject, TrafficSummary } from "../../api/models";
import { Card } from "../../components/Card";
import { Table, type Column } from "../../components/Table";
import { formatCount, formatPercent } from "../../lib/format";
import styles from "./RejectsCard.module.css";

const COLUMNS: Column<Reject>[] = [
  { key: "line", header: "Line", render: (r) => formatCount(r.line_number), align: "right", width: "90px" },
  { key: "reason", header: "Reason", render: (r) => r.reason, width: "260px" },
  { key: "text", header: "Text", render: (r) => r.text, mono: true },
];

export function RejectsCard({ summary }: { summary: TrafficSummary }) {
  const total = summary.request_count + summary.rejected_count; // skipped lines are no requests
  const share = total > 0 ? summary.rejected_count / total : 0;
  const subtitle =
    summary.rejected_count === 0
      ? "Every line was parsed."
      : `${formatCount(summary.rejected_count)} of ${formatCount(total)} request lines (${formatPercent(share, 2)}) could not be parsed and were left out.`;
  return (
    <Card title="Rejected lines" subtitle={subtitle} flush testId="rejects">
      {summary.rejects.length > 0 ? (
        <details className={styles.details}>
          <summary>Show the first {formatCount(summary.rejects.length)}</summary>
          <Table columns={COLUMNS} rows={summary.rejects} rowKey={(r) => r.line_number} caption="Rejected lines" />
        </details>
      ) : (
        <div className={styles.ok} />
      )}
    </Card>
  );
}
