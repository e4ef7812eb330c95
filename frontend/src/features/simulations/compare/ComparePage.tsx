/** Several runs side by side: their numbers, PLT and latency CDFs on one chart, VMs over time. */
import { Link, useSearchParams } from "react-router";
import { useQueries } from "@tanstack/react-query";
import { Card } from "../../../components/Card";
import { EmptyState } from "../../../components/EmptyState";
import { ErrorBanner } from "../../../components/ErrorBanner";
import { PageHeader } from "../../../components/PageHeader";
import { Loading } from "../../../components/Spinner";
import { useDocumentTitle } from "../../../lib/useDocumentTitle";
import { useWorkspace } from "../../workspaces/workspaceContext";
import { getSimulation, type Simulation } from "../api";
import { useSimulations, simKeys } from "../queries";
import { RunSummaryTable } from "../run/RunSummaryTable";
import { asRun, cdfChart, formatVms, runColor } from "../run/runDoc";
import type { RunDocument } from "../results";
import { formatSimClock, timeTicksS, type SimSeries } from "../../../charts/simConfig";
import { SimChart } from "../../../charts/SimChart";
import styles from "../Simulations.module.css";

function parseIds(raw: string | null): number[] {
  const ids = (raw ?? "").split(",").map(Number).filter((n) => Number.isInteger(n) && n > 0);
  return [...new Set(ids)];
}

export function ComparePage() {
  useDocumentTitle("Compare simulations");
  const [params, setParams] = useSearchParams();
  const ids = parseIds(params.get("ids"));
  const toggle = (id: number) => {
    const next = ids.includes(id) ? ids.filter((x) => x !== id) : [...ids, id];
    setParams(next.length > 0 ? { ids: next.join(",") } : {});
  };
  return (
    <>
      <PageHeader title="Compare simulations" back={<Link to="/simulations">← Simulations</Link>} subtitle="Pick finished runs to see them side by side; a sweep opens its own cost/SLA frontier." />
      <div className={styles.compareLayout}>
        <Picker selected={ids} onToggle={toggle} />
        <Comparison ids={ids} />
      </div>
    </>
  );
}

function Picker({ selected, onToggle }: { selected: number[]; onToggle: (id: number) => void }) {
  const { current } = useWorkspace();
  const list = useSimulations(current?.id ?? null);
  const finished = (list.data?.items ?? []).filter((s) => s.job?.status === "succeeded");
  return (
    <Card title="Finished simulations">
      {list.isPending && <Loading />}
      {list.error !== null && <ErrorBanner error={list.error} />}
      {list.data !== undefined && finished.length === 0 && <p className={styles.muted}>No finished simulation yet.</p>}
      <ul className={styles.picker} aria-label="Simulations to compare">
        {finished.map((s) => (
          <li key={s.id}>
            {s.kind === "sweep" ? (
              <Link to={`/simulations/${s.id}`}>{s.name} (sweep: its frontier)</Link>
            ) : (
              <label className={styles.check}>
                <input type="checkbox" checked={selected.includes(s.id)} onChange={() => onToggle(s.id)} data-testid={`compare-pick-${s.id}`} />
                <span>
                  <span className={styles.muted}>#{s.id}</span> {s.name}
                </span>
              </label>
            )}
          </li>
        ))}
      </ul>
    </Card>
  );
}

function Comparison({ ids }: { ids: number[] }) {
  const queries = useQueries({ queries: ids.map((id) => ({ queryKey: simKeys.detail(id), queryFn: () => getSimulation(id) })) });
  if (ids.length === 0) return <EmptyState title="Nothing picked yet">Tick two or more finished runs on the left.</EmptyState>;
  const failed = queries.find((q) => q.error !== null);
  if (failed !== undefined) return <ErrorBanner error={failed.error} title="Could not load a simulation" />;
  const sims = queries.flatMap((q) => (q.data === undefined ? [] : [q.data]));
  if (sims.length < ids.length) return <Loading label="Loading the runs…" />;
  const runs = sims.flatMap((s) => {
    const doc = asRun(s.result);
    return doc === null ? [] : [{ simulation: s, doc }];
  });
  return <RunsSideBySide runs={runs} />;
}

function RunsSideBySide({ runs }: { runs: { simulation: Simulation; doc: RunDocument }[] }) {
  const label = (s: Simulation) => `#${s.id} ${s.name}`;
  const plts = runs.flatMap(({ simulation, doc }) => (doc.plt_cdf === null ? [] : [{ label: label(simulation), cdf: doc.plt_cdf }]));
  const latencies = runs.flatMap(({ simulation, doc }) => (doc.latency_cdf === null ? [] : [{ label: label(simulation), cdf: doc.latency_cdf }]));
  const end = Math.max(0, ...runs.map(({ doc }) => doc.vm_steps.t_s[doc.vm_steps.t_s.length - 1] ?? 0));
  const vms: SimSeries[] = runs.map(({ simulation, doc }, i) => ({
    key: `run${i}`,
    label: label(simulation),
    color: runColor(i),
    kind: "step",
    points: doc.vm_steps.t_s.map((t, j) => ({ x: t, y: doc.vm_steps.allocated_vms[j] ?? null })),
  }));
  return (
    <div className={styles.stack}>
      <Card title="Side by side" flush>
        <RunSummaryTable runs={runs.map(({ simulation, doc }) => ({ label: <Link to={`/simulations/${simulation.id}`}>{label(simulation)}</Link>, summary: doc.summary }))} testId="compare-summary" />
      </Card>
      {plts.length > 0 && (
        <Card>
          <SimChart {...cdfChart("chart-compare-plt-cdf", "PLT", plts)} height={320} />
        </Card>
      )}
      {latencies.length > 0 && (
        <Card>
          <SimChart {...cdfChart("chart-compare-latency-cdf", "Latency", latencies)} height={320} />
        </Card>
      )}
      <Card>
        <SimChart
          config={{
            id: "chart-compare-vms",
            title: "Allocated VMs",
            description: "The autoscaling step function of each run.",
            x: { label: "simulated time (h:min)", format: (s) => formatSimClock(s, end < 3600), ticks: timeTicksS(end), domain: [0, end] },
            y: { label: "VMs", format: formatVms },
          }}
          series={vms}
        />
      </Card>
    </div>
  );
}
