/** Every simulation of the workspace: status and progress, scenario, key numbers. */
import { Link } from "react-router";
import { isJobActive } from "../../api/models";
import { Badge } from "../../components/Badge";
import { ButtonLink } from "../../components/Button";
import { Card } from "../../components/Card";
import { EmptyState } from "../../components/EmptyState";
import { ErrorBanner } from "../../components/ErrorBanner";
import { PageHeader } from "../../components/PageHeader";
import { ProgressBar } from "../../components/ProgressBar";
import { Loading } from "../../components/Spinner";
import { Table, type Column } from "../../components/Table";
import { formatDateTime, formatDecimal, formatDuration, formatLatency, formatPercent } from "../../lib/format";
import { useDocumentTitle } from "../../lib/useDocumentTitle";
import { useWorkspace } from "../workspaces/workspaceContext";
import type { Simulation } from "./api";
import { progressCaption, STATUS_TONES } from "./progress";
import { textOf } from "./scenarioDoc";
import { useSimulations } from "./queries";
import { describeValues } from "./sweep/frontier";
import type { RunSummary } from "./results";
import styles from "./Simulations.module.css";
import { useCanWrite } from "../workspaces/useRole";

function StatusCell({ simulation }: { simulation: Simulation }) {
  const job = simulation.job;
  const status = job?.status ?? "queued";
  return (
    <div className={styles.field}>
      <span>
        <Badge tone={STATUS_TONES[status]}>{status}</Badge>
      </span>
      {job !== null && isJobActive(job) && (
        <>
          <ProgressBar value={job.progress} label={`Progress of ${simulation.name}`} compact />
          <span className={styles.hint}>{progressCaption(simulation, job)}</span>
        </>
      )}
    </div>
  );
}

function keyNumbers(simulation: Simulation): string {
  const numbers = simulation.summary;
  if (numbers === null || numbers === undefined) return "";
  if ("runs" in numbers) {
    const best = numbers.best;
    const which = best.sla_violation_fraction === 0 ? "cheapest within the SLA" : "none within the SLA; cheapest";
    return `${numbers.runs} runs · ${which}: ${describeValues(best)} (${describe(best)})`;
  }
  return describe(numbers);
}

function describe(s: RunSummary): string {
  const p95 = formatLatency(s.plt_s?.p95 ?? s.latency_s.p95);
  const sla = s.sla_violation_fraction === null ? "no SLA" : `${formatPercent(s.sla_violation_fraction, 1)} SLA violations`;
  return `cost ${formatDecimal(s.vms.cost, 1)} · ${sla} · p95 ${p95} · ${s.vms.scaling_actions} actions`;
}

const COLUMNS: Column<Simulation>[] = [
  { key: "name", header: "Name", render: (s) => <Link to={`/simulations/${s.id}`}>{s.name}</Link> },
  { key: "kind", header: "Kind", render: (s) => (s.kind === "sweep" ? `sweep of ${s.sweep?.path ?? ""}` : "run") },
  { key: "status", header: "Status", render: (s) => <StatusCell simulation={s} />, width: "260px" },
  { key: "scenario", header: "Scenario", render: (s) => `${textOf(s.scenario.name, "scenario")} · ${formatDuration(Number(s.scenario.duration_s))}` },
  { key: "numbers", header: "Key numbers", render: keyNumbers },
  { key: "created", header: "Created", render: (s) => formatDateTime(s.created_at), align: "right" },
];

export function SimulationsPage() {
  const { current } = useWorkspace();
  const simulations = useSimulations(current?.id ?? null);
  useDocumentTitle("Simulations");
  const create = useCanWrite() ? <ButtonLink to="/simulations/new">New simulation</ButtonLink> : null;
  const items = simulations.data?.items ?? [];
  return (
    <>
      <PageHeader
        title="Simulations"
        subtitle="Discrete-event runs of a web cluster under autoscaling, and sweeps of a parameter"
        actions={
          <div className={styles.row}>
            <ButtonLink to="/simulations/compare" variant="secondary">
              Compare runs
            </ButtonLink>
            {create}
          </div>
        }
      />
      {simulations.error !== null && <ErrorBanner error={simulations.error} title="Could not load the simulations" />}
      {simulations.isPending && <Loading label="Loading simulations…" />}
      {simulations.data !== undefined && items.length === 0 && (
        <EmptyState title="No simulations yet" action={create} testId="simulations-empty">
          Start from the reference university site or from one of your datasets, then run it or sweep a parameter.
        </EmptyState>
      )}
      {items.length > 0 && (
        <Card flush>
          <Table columns={COLUMNS} rows={items} rowKey={(s) => s.id} testId="simulations-table" caption="Simulations" />
        </Card>
      )}
    </>
  );
}
