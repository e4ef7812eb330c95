/** One simulation: live progress with cancel, then its charts (a run) or its frontier (a sweep). */
import { Link, useNavigate } from "react-router";
import { isJobActive } from "../../../api/models";
import { Badge } from "../../../components/Badge";
import { Banner } from "../../../components/Banner";
import { Button, ButtonLink } from "../../../components/Button";
import { Card } from "../../../components/Card";
import { ErrorBanner } from "../../../components/ErrorBanner";
import { PageHeader } from "../../../components/PageHeader";
import { ProgressBar } from "../../../components/ProgressBar";
import { Loading } from "../../../components/Spinner";
import { StatCard } from "../../../components/StatCard";
import { formatDateTime, formatLatency, formatPercent } from "../../../lib/format";
import { useDocumentTitle } from "../../../lib/useDocumentTitle";
import { AddToReport } from "../../reports/AddToReport";
import type { Simulation } from "../api";
import { progressCaption, STATUS_TONES } from "../progress";
import { textOf } from "../scenarioDoc";
import { useCancelSimulation, useSimulation } from "../queries";
import { RunSummaryTable } from "./RunSummaryTable";
import { asRun, asSweep, costParts, utilizationByVmsChart, cdfChart, stepFunctionChart, utilizationChart, windowLatencyChart } from "./runDoc";
import type { RunDocument } from "../results";
import { SimChart } from "../../../charts/SimChart";
import styles from "../Simulations.module.css";
import { SweepView } from "../sweep/SweepView";
import { TierResults } from "./TierResults";
import { useCanWrite } from "../../workspaces/useRole";
import { ExportControl } from "../../exports/ExportControl";
import { SCENARIO_KINDS, scenarioKind } from "../../exports/api";

export function SimulationView({ simulationId }: { simulationId: number }) {
  const query = useSimulation(simulationId);
  const simulation = query.data;
  useDocumentTitle(simulation?.name ?? "Simulation");
  if (query.error !== null) return <ErrorBanner error={query.error} title="Could not load the simulation" action={<ButtonLink to="/simulations" variant="secondary">All simulations</ButtonLink>} />;
  if (simulation === undefined) return <Loading label="Loading the simulation…" />;
  return (
    <>
      <Header simulation={simulation} />
      {simulation.kind === "run" && <RunExport simulation={simulation} />}
      <Body simulation={simulation} />
    </>
  );
}

/** The run's scenario as deployable settings (its autoscaling, admission, pools and SLA). */
function RunExport({ simulation }: { simulation: Simulation }) {
  const policy = (simulation.scenario.autoscaling as { policy?: unknown } | null | undefined)?.policy;
  return (
    <Card title="Deployable settings" subtitle="This scenario's autoscaling, limits and SLA in the formats your autoscaler, proxy and monitoring read." testId="run-export-card">
      <ExportControl source={{ kind: "simulation", id: simulation.id }} kinds={SCENARIO_KINDS} initialKind={scenarioKind(policy)} label="Export settings" testId="run-export" />
    </Card>
  );
}

function Header({ simulation }: { simulation: Simulation }) {
  const navigate = useNavigate();
  const status = simulation.job?.status ?? "queued";
  const copy = () => void navigate("/simulations/new", { state: { scenario: simulation.scenario } });
  return (
    <PageHeader
      title={simulation.name}
      titleTestId="simulation-title"
      back={<Link to="/simulations">← Simulations</Link>}
      subtitle={
        <>
          <Badge tone={STATUS_TONES[status]}>{status}</Badge> {simulation.kind === "sweep" ? "sweep" : "run"} · seed {simulation.seed ?? textOf(simulation.scenario.seed, "0")} · {formatDateTime(simulation.created_at)}
        </>
      }
      actions={
        <div className={styles.row}>
          {status === "succeeded" && <AddToReport kind={simulation.kind === "sweep" ? "sweep" : "simulation"} sourceId={simulation.id} suggestedTitle={simulation.name} />}
          {simulation.kind === "run" && status === "succeeded" && (
            <ButtonLink variant="secondary" to={`/simulations/compare?ids=${simulation.id}`}>
              Compare with…
            </ButtonLink>
          )}
          <Button variant="secondary" onClick={copy}>
            Edit a copy
          </Button>
        </div>
      }
    />
  );
}

function Body({ simulation }: { simulation: Simulation }) {
  const job = simulation.job;
  if (job === null) return <Banner tone="warning" title="This simulation has no job">Start it again from “Edit a copy”.</Banner>;
  if (isJobActive(job)) return <Running simulation={simulation} />;
  if (job.status === "failed") {
    return <ErrorBanner error={new Error(job.error_message ?? "The simulation failed.")} title={`The simulation failed (${job.error_code ?? "error"})`} hint="Fix the scenario with “Edit a copy” and run it again." />;
  }
  if (job.status === "cancelled") return <Banner tone="info" title="Cancelled">This simulation was cancelled before it finished; “Edit a copy” runs it again.</Banner>;
  const run = asRun(simulation.result);
  const sweep = asSweep(simulation.result);
  if (run !== null) return <RunCharts simulation={simulation} doc={run} />;
  if (sweep !== null) return <SweepView simulation={simulation} doc={sweep} />;
  return <Loading label="Loading the results…" />;
}

function Running({ simulation }: { simulation: Simulation }) {
  const cancel = useCancelSimulation(simulation.id);
  const canWrite = useCanWrite();
  const job = simulation.job;
  if (job === null) return null;
  return (
    <Card title={job.status === "queued" ? "Queued" : "Simulating"} testId="simulation-progress">
      <div className={styles.stack} style={{ gap: "var(--space-3)" }}>
        <ProgressBar value={job.status === "queued" ? null : job.progress} label={simulation.kind === "sweep" ? "Runs" : "Simulated time"} caption={progressCaption(simulation, job)} testId="job-progress" />
        {canWrite && (
          <div>
            <Button variant="danger" onClick={() => cancel.mutate()} disabled={cancel.isPending} data-testid="cancel-simulation">
              {cancel.isPending ? "Cancelling…" : "Cancel"}
            </Button>
          </div>
        )}
        {cancel.error !== null && <ErrorBanner error={cancel.error} title="Could not cancel" />}
      </div>
    </Card>
  );
}

function slaThreshold(simulation: Pick<Simulation, "scenario">): number | null {
  const sla = simulation.scenario.sla as { threshold_s?: unknown } | null | undefined;
  return typeof sla?.threshold_s === "number" ? sla.threshold_s : null;
}

/** A run's charts and summary (a single run, or a sweep's stored run). */
export function RunCharts({ simulation, doc }: { simulation: Pick<Simulation, "name" | "scenario">; doc: RunDocument }) {
  const s = doc.summary;
  const cost = costParts(s.vms.cost, s.vms.vm_hours);
  const steps = stepFunctionChart(doc);
  const util = utilizationChart(doc);
  const windows = windowLatencyChart(doc, slaThreshold(simulation));
  const byVms = utilizationByVmsChart(doc);
  const plt = doc.plt_cdf === null ? null : cdfChart("chart-plt-cdf", "PLT", [{ label: simulation.name, cdf: doc.plt_cdf }]);
  const latency = doc.latency_cdf === null ? null : cdfChart("chart-latency-cdf", "Latency", [{ label: simulation.name, cdf: doc.latency_cdf }]);
  return (
    <div className={styles.stack}>
      <div className={styles.grid} style={{ gridTemplateColumns: "repeat(auto-fill, minmax(200px, 1fr))" }}>
        <StatCard label="Cost (VM-hours × price)" value={cost.value} unit={cost.unit} hint={cost.hint} testId="stat-cost" />
        <StatCard label="SLA violations" value={s.sla_violation_fraction === null ? "—" : formatPercent(s.sla_violation_fraction, 2)} unit="of windows" hint={s.sla_violation_fraction === null ? "no SLA in the scenario" : undefined} tone={s.sla_violation_fraction !== null && s.sla_violation_fraction > 0.05 ? "warning" : "neutral"} testId="stat-sla" />
        <StatCard label="Scaling actions" value={String(s.vms.scaling_actions)} hint={`max ${s.vms.max_allocated} VMs allocated`} testId="stat-actions" />
        <StatCard label={s.plt_s === null ? "p95 latency" : "p95 page load time"} value={formatLatency(s.plt_s?.p95 ?? s.latency_s.p95)} testId="stat-p95" />
        <StatCard label="Rejected" value={formatPercent(s.rejected_fraction, 2)} unit="of requests" />
      </div>
      <Card>
        <SimChart {...steps} height={340} />
      </Card>
      <TierResults doc={doc} />
      <div className={styles.charts}>
        <Card>
          <SimChart {...util} />
        </Card>
        <Card>
          <SimChart {...windows} />
        </Card>
        {plt !== null && (
          <Card>
            <SimChart {...plt} />
          </Card>
        )}
        {latency !== null && (
          <Card>
            <SimChart {...latency} />
          </Card>
        )}
        <Card className={plt === null ? undefined : styles.wide}>
          <SimChart {...byVms} />
        </Card>
      </div>
      <Card title="Summary" flush>
        <RunSummaryTable runs={[{ label: simulation.name, summary: s }]} testId="run-summary" />
      </Card>
    </div>
  );
}
