import { useState, type SyntheticEvent } from "react";
import { CurveChart } from "../../charts/CurveChart";
import type { CurveChartConfig } from "../../charts/curveConfig";
import { Button } from "../../components/Button";
import { Card } from "../../components/Card";
import { EmptyState } from "../../components/EmptyState";
import { ErrorBanner } from "../../components/ErrorBanner";
import { PageHeader } from "../../components/PageHeader";
import { Loading } from "../../components/Spinner";
import { Table, type Column } from "../../components/Table";
import { TextField } from "../../components/TextField";
import { formatCount, formatDecimal, formatDuration, formatPercent } from "../../lib/format";
import { useDocumentTitle } from "../../lib/useDocumentTitle";
import { useSimulations } from "../simulations/queries";
import { useWorkspace } from "../workspaces/workspaceContext";
import { useBackgroundDemos, useCompareBackground, type BackgroundCompare, type BackgroundComparison } from "./api";
import { POLICIES, POLICY_COLORS, POLICY_LABELS, quotaRows, recommendation, tradeoffRows, type Policy } from "./backgroundCharts";
import { PoliciesNav } from "./PolicyRuns";
import styles from "./Policies.module.css";

const MAX_FILE_BYTES = 8_000_000;
const pct = (v: number) => formatPercent(v);

const TRADEOFF: CurveChartConfig = {
  id: "tradeoff-chart",
  title: "Background CPU obtained against foreground slowdown",
  description: "One dot per policy: the share of the machine background work obtained against the share of foreground work delayed past its round.",
  xLabel: "foreground work delayed",
  yLabel: "background CPU",
  xUnit: (v) => formatPercent(v, 2),
  yUnit: pct,
  series: POLICIES.map((p) => ({ key: p, label: POLICY_LABELS[p], color: POLICY_COLORS[p], points: true })),
  marks: [],
};

const QUOTA: CurveChartConfig = {
  id: "quota-chart",
  title: "Background quota over time",
  description: "Foreground CPU demand and the background quota the static cap and the adaptive controller set, as shares of the machine, against hours from the start of the series.",
  xLabel: "time from start (h)",
  yLabel: "share of the machine",
  xUnit: (v) => `${formatDecimal(v, 2)} h`,
  yUnit: pct,
  series: [
    { key: "demand", label: "Foreground demand", color: "chart-requests", step: true },
    ...(["static", "adaptive"] as const).map((p) => ({ key: p, label: `Quota: ${POLICY_LABELS[p]}`, color: POLICY_COLORS[p], step: true })),
  ],
  marks: [],
};

interface PolicyRow {
  policy: Policy;
  background: number;
  idle: number;
  delayed: number;
  p95: number;
}

const COLUMNS: Column<PolicyRow>[] = [
  { key: "policy", header: "Policy", render: (r) => POLICY_LABELS[r.policy] },
  { key: "background", header: "Background CPU", render: (r) => formatPercent(r.background), align: "right" },
  { key: "idle", header: "Idle left", render: (r) => formatPercent(r.idle), align: "right" },
  { key: "delayed", header: "FG work delayed", render: (r) => formatPercent(r.delayed, 2), align: "right" },
  { key: "p95", header: "p95 delay", render: (r) => formatDuration(r.p95), align: "right" },
];

function tableRows(result: BackgroundComparison): PolicyRow[] {
  return POLICIES.flatMap((policy) => {
    const o = result.policies[policy];
    if (o === undefined) return [];
    const { background_cpu_fraction: background, idle_fraction: idle } = o;
    return [{ policy, background, idle, delayed: o.foreground_delayed_fraction, p95: o.foreground_delay_p95_s }];
  });
}

export function BackgroundPage() {
  useDocumentTitle("Headroom for background work");
  const compare = useCompareBackground();
  return (
    <div className={styles.stack}>
      <PageHeader
        title="Headroom for background work"
        subtitle="Run batch work on the idle CPU of a latency-sensitive service: compare four policies on your foreground's CPU demand."
      />
      <PoliciesNav />
      <div className={styles.grid}>
        <Card title="Foreground CPU demand" subtitle="A CSV of t_s, busy_fraction (0–1) at even steps, a simulation run's utilization, or a demo series.">
          <SourceForm pending={compare.isPending} onRun={(body) => compare.mutate(body)} />
        </Card>
        <div className={styles.stack}>
          {compare.isPending && <Loading label="Running the four policies over every scheduling round…" />}
          {compare.isError && (
            <ErrorBanner
              error={compare.error}
              title="The series could not be used"
              hint="Each line needs a timestamp in seconds and a busy fraction between 0 and 1, evenly spaced."
            />
          )}
          {compare.isSuccess && <Results result={compare.data} />}
          {compare.isIdle && (
            <EmptyState title="No comparison yet" testId="background-empty">
              Pick a demo series, a simulation run or your own CSV, then press <strong>Compare policies</strong>.
            </EmptyState>
          )}
        </div>
      </div>
    </div>
  );
}

function SourceForm({ pending, onRun }: { pending: boolean; onRun: (body: BackgroundCompare) => void }) {
  const demos = useBackgroundDemos();
  const { current } = useWorkspace();
  const simulations = useSimulations(current?.id ?? null);
  const runs = (simulations.data?.items ?? []).filter((s) => s.kind === "run" && s.job?.status === "succeeded");
  const [source, setSource] = useState<"demo" | "simulation" | "csv">("demo");
  const [demo, setDemo] = useState("epa_day");
  const [runId, setRunId] = useState<number | null>(null);
  const chosenRun = runId ?? runs[0]?.id ?? null;
  const [csv, setCsv] = useState("");
  const [quota, setQuota] = useState("");
  const [multiplier, setMultiplier] = useState("1");
  const [fileError, setFileError] = useState<string | null>(null);

  const quotaValue = quota.trim() === "" ? null : Number(quota);
  const quotaBad = quotaValue !== null && !(quotaValue >= 0 && quotaValue <= 1);
  const multiplierValue = Number(multiplier);
  const multiplierBad = !(multiplierValue >= 1 && multiplierValue <= 16);
  const missing = (source === "csv" && csv.trim() === "") || (source === "simulation" && chosenRun === null);

  const readFile = async (file: File | undefined) => {
    if (file === undefined) return;
    if (file.size > MAX_FILE_BYTES) {
      setFileError(`${file.name} is ${formatCount(file.size)} bytes; the limit is ${formatCount(MAX_FILE_BYTES)}`);
      return;
    }
    setFileError(null);
    setCsv(await file.text());
  };
  const submit = (e: SyntheticEvent<HTMLFormElement>) => {
    e.preventDefault();
    const options = { static_quota: quotaValue, min_multiplier: multiplierValue };
    if (source === "demo") onRun({ demo: demo as BackgroundCompare["demo"], ...options });
    else if (source === "simulation") onRun({ simulation_id: chosenRun, ...options });
    else onRun({ csv, ...options });
  };

  return (
    <form className={styles.form} onSubmit={submit} aria-label="Foreground CPU demand">
      <fieldset className={styles.form}>
        <legend className={styles.label}>Series</legend>
        <label>
          <input type="radio" name="source" checked={source === "demo"} onChange={() => setSource("demo")} /> A demo
        </label>
        <label>
          <input type="radio" name="source" checked={source === "simulation"} onChange={() => setSource("simulation")} /> A simulation run
        </label>
        <label>
          <input type="radio" name="source" checked={source === "csv"} onChange={() => setSource("csv")} /> Your CSV
        </label>
      </fieldset>
      {source === "simulation" && (
        <div className={styles.field}>
          <label className={styles.label} htmlFor="series-run">
            Simulation run
          </label>
          <select id="series-run" className={styles.select} value={chosenRun ?? ""} onChange={(e) => setRunId(Number(e.target.value))} disabled={simulations.isLoading || runs.length === 0}>
            {runs.map((r) => (
              <option key={r.id} value={r.id}>
                {r.name} (#{r.id})
              </option>
            ))}
          </select>
          {simulations.isError && <p className={styles.error}>The simulations could not be loaded; pick a demo or give a CSV.</p>}
          <p className={styles.muted}>
            {runs.length === 0 && simulations.isSuccess
              ? "No finished simulation run in this workspace yet: run one under Simulations."
              : "The mean busy share of the run's active VMs over time, as the machine's foreground demand."}
          </p>
        </div>
      )}
      {source === "demo" && (
        <div className={styles.field}>
          <label className={styles.label} htmlFor="demo-series">
            Demo series
          </label>
          <select id="demo-series" className={styles.select} value={demo} onChange={(e) => setDemo(e.target.value)} disabled={demos.isLoading}>
            {(demos.data ?? []).map((d) => (
              <option key={d.id} value={d.id} title={d.description}>
                {d.label}
              </option>
            ))}
          </select>
          {demos.isError && <p className={styles.error}>The demo list could not be loaded; paste a CSV instead.</p>}
          <p className={styles.muted}>{demos.data?.find((d) => d.id === demo)?.description}</p>
        </div>
      )}
      {source === "csv" && (
        <div className={styles.field}>
          <label className={styles.label} htmlFor="series-file">
            CSV file (t_s, busy_fraction)
          </label>
          <input id="series-file" type="file" accept=".csv,text/csv,text/plain" onChange={(e) => void readFile(e.target.files?.[0])} />
          {fileError !== null && <p className={styles.error}>{fileError}</p>}
          <label className={styles.label} htmlFor="series-text">
            or paste it
          </label>
          <textarea id="series-text" className={styles.textarea} value={csv} placeholder={"t_s,busy_fraction\n0,0.35\n1,0.42"} onChange={(e) => setCsv(e.target.value)} />
        </div>
      )}
      <div className={styles.fields}>
        <div>
          <TextField label="Static cap (0–1, blank: 1 − peak)" inputMode="decimal" value={quota} onChange={(e) => setQuota(e.target.value)} aria-invalid={quotaBad} />
          {quotaBad && <p className={styles.error}>a share between 0 and 1</p>}
        </div>
        <div>
          <TextField label="Adaptive min multiplier (1–16)" inputMode="decimal" value={multiplier} onChange={(e) => setMultiplier(e.target.value)} aria-invalid={multiplierBad} />
          {multiplierBad && <p className={styles.error}>between 1 and 16 (about 8 for limited parallelism)</p>}
        </div>
      </div>
      <Button variant="primary" type="submit" disabled={pending || quotaBad || multiplierBad || missing}>
        Compare policies
      </Button>
    </form>
  );
}

function Results({ result }: { result: BackgroundComparison }) {
  return (
    <>
      <Card title="Recommendation" testId="background-recommendation">
        <p className={styles.recommendation}>{recommendation(result)}</p>
        <p className={styles.muted}>
          {formatCount(result.rounds)} scheduling rounds of {formatDuration(result.round_s)}. The controller sees only the machine's idle CPU; it keeps
          a small band idle so that starvation shows.
        </p>
      </Card>
      <Card subtitle="Up and to the left is better: more background work, less foreground delay.">
        <CurveChart config={TRADEOFF} rows={tradeoffRows(result)} yMax={1} />
      </Card>
      <Card title="Per policy" flush>
        <Table columns={COLUMNS} rows={tableRows(result)} rowKey={(r) => r.policy} caption="Background policies compared" testId="policy-table" />
      </Card>
      <Card subtitle="Foreground demand and the background quota of the static cap and the adaptive controller. Do nothing never caps; suspend flips between 0 and 100% whenever the foreground crosses its threshold.">
        <CurveChart config={QUOTA} rows={quotaRows(result)} yMax={1} />
      </Card>
    </>
  );
}
