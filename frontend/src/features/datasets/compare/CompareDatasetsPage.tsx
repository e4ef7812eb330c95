/** Two or more datasets overlaid (/datasets/compare?ids=3,7): their figures side by side with
 * the differences from the first stated, traffic and p95 latency on one time axis, and their
 * knee curves. The ids and the alignment live in the URL, so a comparison can be shared. */
import { useQueries } from "@tanstack/react-query";
import { Link, useSearchParams } from "react-router";
import { getCurrentCharacterization, getDataset, getSummary, listAnalyses } from "../../../api/endpoints";
import { isNotFound } from "../../../api/client";
import { readCapacityReport } from "../../../api/capacityReport";
import type { SimChartConfig } from "../../../charts/simConfig";
import { SimChart } from "../../../charts/SimChart";
import { Banner } from "../../../components/Banner";
import { Card } from "../../../components/Card";
import { EmptyState } from "../../../components/EmptyState";
import { ErrorBanner } from "../../../components/ErrorBanner";
import { PageHeader } from "../../../components/PageHeader";
import { Loading } from "../../../components/Spinner";
import { Table, type Column } from "../../../components/Table";
import { formatDateTime, formatDecimal, formatLatency, formatRatePerS } from "../../../lib/format";
import { useDocumentTitle } from "../../../lib/useDocumentTitle";
import { Segmented } from "../../characterization/Segmented";
import { differences, figureRows, idsFromSearch, kneeSeries, latencySeries, trafficSeries, type Alignment, type Compared, type FigureRow } from "./compare";
import styles from "./CompareDatasets.module.css";

const ALIGNMENTS = [
  { value: "start", label: "From each start" },
  { value: "clock", label: "By clock" },
] as const satisfies readonly { value: Alignment; label: string }[];

/** null when the thing does not exist yet (no characterization, no analysis); errors otherwise. */
async function orNull<T>(load: Promise<T>): Promise<T | null> {
  try {
    return await load;
  } catch (error) {
    if (isNotFound(error)) return null;
    throw error;
  }
}

async function loadCompared(id: number): Promise<Compared> {
  const [dataset, summary, characterization, analyses] = await Promise.all([
    getDataset(id),
    orNull(getSummary(id)),
    orNull(getCurrentCharacterization(id)),
    listAnalyses(id),
  ]);
  const latency = characterization?.result?.display?.latency?.overall ?? null;
  const capacity = analyses.items.map((a) => readCapacityReport(a.result)).find((r) => r !== null) ?? null;
  return { id, name: dataset.name, summary, latencyP95: latency && { t_ms: latency.t_ms, p95_s: latency.p95_s }, capacity };
}

function timeAxis(alignment: Alignment) {
  return alignment === "clock"
    ? { label: "time (UTC)", format: (ms: number) => formatDateTime(ms).slice(5, 16) }
    : { label: "hours from each dataset's first request", format: (h: number) => `${formatDecimal(h, h < 10 ? 1 : 0)} h` };
}

function FiguresTable({ datasets, rows }: { datasets: Compared[]; rows: FigureRow[] }) {
  const columns: Column<FigureRow>[] = [
    { key: "figure", header: "Figure", render: (r) => r.label },
    ...datasets.map((d, i) => ({
      key: `d${d.id}`,
      header: i === 0 ? `${d.name} (baseline)` : d.name,
      render: (r: FigureRow) => <span className={r.cells[i]?.value === null ? styles.missing : undefined}>{r.cells[i]?.text}</span>,
      align: "right" as const,
    })),
  ];
  return <Table columns={columns} rows={rows} rowKey={(r) => r.key} caption="Figures of each dataset" testId="compare-figures" />;
}

function Charts({ datasets, alignment }: { datasets: Compared[]; alignment: Alignment }) {
  const traffic: SimChartConfig = {
    id: "compare-traffic",
    title: "Traffic",
    description: "Requests per minute of each dataset.",
    x: timeAxis(alignment),
    y: { label: "req/min", format: (v) => formatDecimal(v, Math.abs(v) < 10 ? 1 : 0) },
  };
  const latency: SimChartConfig = { ...traffic, id: "compare-latency", title: "Latency p95", description: "The 95th percentile of response time over time.", y: { label: "p95", format: formatLatency } };
  const knees: SimChartConfig = {
    id: "compare-knees",
    title: "Knee curves",
    description: "Measured latency against load, from each dataset's newest capacity analysis.",
    x: { label: "load (req/s)", format: (v) => formatRatePerS(v) },
    y: { label: "latency", format: formatLatency },
  };
  const p95 = latencySeries(datasets, alignment);
  const curves = kneeSeries(datasets);
  return (
    <>
      <Card>
        <SimChart config={traffic} series={trafficSeries(datasets, alignment)} />
      </Card>
      <Card>
        {p95.length > 0 ? <SimChart config={latency} series={p95} /> : <p className={styles.note}>Latency p95: none of these logs records response times.</p>}
      </Card>
      <Card>
        {curves.length > 0 ? <SimChart config={knees} series={curves} /> : <p className={styles.note}>Knee curves: no capacity analysis yet. Run one on a dataset's Capacity tab to see its knee here.</p>}
      </Card>
    </>
  );
}

export function CompareDatasetsPage() {
  useDocumentTitle("Compare datasets");
  const [search, setSearch] = useSearchParams();
  const ids = idsFromSearch(search.get("ids"));
  const alignment: Alignment = search.get("align") === "clock" ? "clock" : "start";
  const results = useQueries({ queries: ids.map((id) => ({ queryKey: ["datasets", "compare", id], queryFn: () => loadCompared(id), staleTime: 60_000 })) });
  const back = <Link to="/datasets">← Datasets</Link>;
  if (ids.length < 2) {
    return (
      <>
        <PageHeader title="Compare datasets" back={back} />
        <EmptyState title="Pick two or more datasets">Tick the datasets to compare in the datasets list, then press Compare.</EmptyState>
      </>
    );
  }
  const failed = results.find((r) => r.isError);
  const datasets = results.flatMap((r) => (r.data ? [r.data] : []));
  const rows = figureRows(datasets);
  const words = differences(datasets, rows);
  return (
    <div className={styles.page}>
      <PageHeader
        title="Compare datasets"
        back={back}
        subtitle={datasets.length === ids.length ? `${datasets.map((d) => d.name).join(" vs ")}: differences are from ${datasets[0]?.name}` : undefined}
        actions={<Segmented label="Align the time axis" options={ALIGNMENTS} value={alignment} onChange={(a) => setSearch({ ids: ids.join(","), align: a }, { replace: true })} testId="compare-align" />}
      />
      {failed?.error && <ErrorBanner error={failed.error} title="Could not load a dataset to compare" />}
      {datasets.length < ids.length && !failed ? (
        <Loading label="Loading the datasets…" />
      ) : (
        <>
          <Banner tone="info" title="Differences">
            {words.length === 0 ? (
              <span data-testid="compare-differences">No figure differs by 5% or more.</span>
            ) : (
              <ul className={styles.differences} data-testid="compare-differences">
                {words.map((w) => (
                  <li key={w}>{w}</li>
                ))}
              </ul>
            )}
          </Banner>
          <Card title="Figures" flush>
            <FiguresTable datasets={datasets} rows={rows} />
          </Card>
          <Charts datasets={datasets} alignment={alignment} />
        </>
      )}
    </div>
  );
}
