import { useQuery } from "@tanstack/react-query";
import { Link, useSearchParams } from "react-router";
import { Banner } from "../../components/Banner";
import { Card } from "../../components/Card";
import { ErrorBanner } from "../../components/ErrorBanner";
import { PageHeader } from "../../components/PageHeader";
import { Loading } from "../../components/Spinner";
import { Table, type Column } from "../../components/Table";
import { useDocumentTitle } from "../../lib/useDocumentTitle";
import { compareReports, compareRuns } from "./api";
import { ComparePicker } from "./ComparePicker";
import { UNIT_FORMAT } from "./chartShape";
import { formatChange } from "./reportMath";
import { ReportChartView } from "./ReportItemView";
import styles from "./Reports.module.css";
import { KIND_LABELS, type FigureDelta, type ItemComparison, type ItemKind } from "./types";

const VERDICT_TEXT = { better: "better", worse: "worse", same: "same", changed: "changed" } as const;

function formatDelta(f: FigureDelta): string {
  if (f.delta === null) return "—";
  const sign = f.delta > 0 ? "+" : f.delta < 0 ? "−" : "±";
  return `${sign}${UNIT_FORMAT[f.unit](Math.abs(f.delta))}`;
}

const COLUMNS: Column<FigureDelta>[] = [
  { key: "label", header: "Figure", render: (f) => f.label },
  { key: "a", header: "A", align: "right", render: (f) => (f.a === null ? "—" : UNIT_FORMAT[f.unit](f.a)) },
  { key: "b", header: "B", align: "right", render: (f) => (f.b === null ? "—" : UNIT_FORMAT[f.unit](f.b)) },
  { key: "delta", header: "B − A", align: "right", render: formatDelta },
  {
    key: "change",
    header: "Change",
    align: "right",
    render: (f) => (
      <span className={f.verdict === "better" ? styles.better : f.verdict === "worse" ? styles.worse : undefined} data-verdict={f.verdict ?? "none"}>
        {formatChange(f.change_pct)}
        {f.verdict === "better" || f.verdict === "worse" ? ` (${VERDICT_TEXT[f.verdict]})` : ""}
      </span>
    ),
  },
];

function PairView({ pair, index }: { pair: ItemComparison; index: number }) {
  const subtitle = `${KIND_LABELS[pair.kind]} · A: ${pair.a_title} · B: ${pair.b_title}`;
  return (
    <Card title={pair.title} subtitle={subtitle} testId="comparison-item">
      <Table columns={COLUMNS} rows={pair.figures} rowKey={(f) => f.key} caption={`Figures of ${pair.title}`} />
      <div className={styles.charts}>
        {pair.charts.map((c) => (
          <ReportChartView key={c.key} chart={c} id={`compare-${index}-${c.key}`} />
        ))}
      </div>
    </Card>
  );
}

function useComparison(params: URLSearchParams) {
  const a = Number(params.get("a"));
  const b = Number(params.get("b"));
  const kind = params.get("kind") as ItemKind | null;
  return useQuery({
    queryKey: ["reports", "compare", kind, a, b],
    queryFn: () => (kind === null ? compareReports(a, b) : compareRuns(kind, a, b)),
    enabled: Number.isInteger(a) && Number.isInteger(b) && a > 0 && b > 0,
  });
}

/** Two reports (?a=&b=) or two runs of one kind (?kind=capacity&a=&b=) side by side. */
export function ComparePage() {
  const [params] = useSearchParams();
  const comparison = useComparison(params);
  useDocumentTitle("Compare");
  const data = comparison.data;
  return (
    <>
      <PageHeader
        title="Compare"
        back={<Link to="/reports">← Reports</Link>}
        subtitle={data ? `A: ${data.a_label} · B: ${data.b_label}` : "Green: B is better than A; red: worse."}
      />
      <div className={styles.stack}>
        <ComparePicker />
        {comparison.isFetching && data === undefined && <Loading label="Comparing…" />}
        {comparison.isError && <ErrorBanner error={comparison.error} title="Could not compare" hint="Both must exist and be visible to you." />}
        {data !== undefined && data.items.length === 0 && (
          <Banner tone="warning" title="Nothing to compare">
            The two have no item of the same kind (and class).
          </Banner>
        )}
        {data?.items.map((pair, i) => <PairView key={`${pair.kind}-${i}`} pair={pair} index={i} />)}
        {data !== undefined && (data.only_in_a.length > 0 || data.only_in_b.length > 0) && (
          <Card title="Not paired">
            <p className={styles.muted}>
              Only in A: {data.only_in_a.join(", ") || "—"}. Only in B: {data.only_in_b.join(", ") || "—"}.
            </p>
          </Card>
        )}
      </div>
    </>
  );
}
