/** "Virtual queue": one scenario run with a discovering virtual queue and without any stage; the
 * capacity discovery, waits, offered vs admitted load, response time with and without, and the advice. */
import { useState, type SyntheticEvent } from "react";
import { Button } from "../../components/Button";
import { Card } from "../../components/Card";
import { EmptyState } from "../../components/EmptyState";
import { ErrorBanner } from "../../components/ErrorBanner";
import { PageHeader } from "../../components/PageHeader";
import { Loading } from "../../components/Spinner";
import { StatCard } from "../../components/StatCard";
import { TextField } from "../../components/TextField";
import { formatCount, formatDuration, formatLatency, formatRatePerS } from "../../lib/format";
import { useDocumentTitle } from "../../lib/useDocumentTitle";
import type { Simulation } from "../simulations/api";
import { useCreateSimulation } from "../simulations/queries";
import { asRun } from "../simulations/run/runDoc";
import type { RunDocument } from "../simulations/results";
import { getPath, textOf, type Scenario } from "../simulations/scenarioDoc";
import { SimChart } from "../../charts/SimChart";
import { useCanWrite } from "../workspaces/useRole";
import { useWorkspace } from "../workspaces/workspaceContext";
import { PoliciesNav, RunProgress } from "./PolicyRuns";
import { formChoices, pickedRunNames, SHOWN_KEY, type ShownRun } from "./shownScenario";
import { UnavailableDatasets } from "./UnavailableDatasets";
import { useScenarioChoices, useShownIds, useTracked, type ScenarioChoice } from "./usePolicyRuns";
import {
  discoveryChart,
  loadChart,
  PHASE_COLORS,
  PHASE_LABELS,
  PHASES,
  phaseSpans,
  queueSeries,
  queueSummary,
  recommendation,
  responseChart,
  waitChart,
  withoutStage,
  withQueue,
} from "./virtualQueue";
import styles from "./Policies.module.css";

export const QUEUED_PREFIX = "Virtual queue · ";
export const BARE_PREFIX = "No queue · ";

export function VirtualQueuePage() {
  useDocumentTitle("Virtual queue");
  const { choices, unavailable, loading } = useScenarioChoices("virtual-queue");
  const [picked, setPicked] = useState<string | null>(null);
  const exact = picked === null ? [] : pickedRunNames(choices.find((c) => c.key === picked), [QUEUED_PREFIX, BARE_PREFIX]);
  const { ids, show } = useShownIds(["queued", "bare"], [QUEUED_PREFIX, BARE_PREFIX], exact);
  const queued = useTracked(ids[0] ?? null);
  const bare = useTracked(ids[1] ?? null);
  // The queued run's scenario with the stage the page adds taken out again: the scenario the form ran.
  const shown = queued.data === undefined ? null : { name: queued.data.name, scenario: withoutStage(queued.data.scenario as Scenario) };
  const wait = queued.data === undefined ? null : getPath(queued.data.scenario as Scenario, ["admission", "max_wait_s"]);
  const pick = (next: string) => {
    setPicked(next === SHOWN_KEY ? null : next);
    if (next !== SHOWN_KEY) show([]);
  };
  return (
    <div className={styles.stack}>
      <PageHeader
        title="Virtual queue"
        subtitle="Instead of dropping requests over capacity, tell each user when to come back: the queue discovers the server's capacity online and spreads bursts over the spare seconds."
      />
      <PoliciesNav />
      <div className={styles.grid}>
        <Card title="Scenario" subtitle="Run it with a discovering virtual queue and without any admission stage.">
          {loading ? <Loading label="Loading the scenarios…" /> : <QueueForm choices={choices} picked={picked} shown={shown} shownMaxWaitS={picked === null && typeof wait === "number" ? wait : null} onPick={pick} onStarted={show} />}
          <UnavailableDatasets items={unavailable} />
        </Card>
        <div className={styles.stack}>
          {ids[0] === null && (
            <EmptyState title="No virtual-queue run yet" testId="queue-empty">
              {picked === null ? "Pick a scenario whose load exceeds its capacity at times, then press " : "This scenario has not been run yet: press "}
              <strong>Run both</strong>.
            </EmptyState>
          )}
          {(queued.error ?? bare.error) !== null && <ErrorBanner error={queued.error ?? bare.error} title="Could not load the runs" />}
          {queued.data !== undefined && bare.data !== undefined && <Results queued={queued.data} bare={bare.data} />}
          {ids[0] !== null && (queued.data === undefined || bare.data === undefined) && queued.error === null && <Loading label="Loading the runs…" />}
        </div>
      </div>
    </div>
  );
}

interface FormProps {
  choices: ScenarioChoice[];
  picked: string | null;
  /** The runs shown beside the form: the form shows their scenario until the user picks another. */
  shown: ShownRun | null;
  shownMaxWaitS: number | null;
  onPick: (key: string) => void;
  onStarted: (ids: number[]) => void;
}

function QueueForm({ choices: listed, picked, shown, shownMaxWaitS, onPick, onStarted }: FormProps) {
  const { current } = useWorkspace();
  const canWrite = useCanWrite();
  const [maxWait, setMaxWait] = useState("3600");
  const create = useCreateSimulation(() => undefined);
  const { choices, key } = formChoices(listed, picked, shown, QUEUED_PREFIX);
  const choice = choices.find((c) => c.key === key);
  const [followed, setFollowed] = useState<number | null>(null);
  if (shownMaxWaitS !== followed) {
    // The shown runs changed: the form takes their maximum wait (React's "adjust state on a prop change").
    setFollowed(shownMaxWaitS);
    if (shownMaxWaitS !== null) setMaxWait(String(shownMaxWaitS));
  }
  const maxWaitS = Number(maxWait);
  const problem = choice === undefined ? "No scenario to run." : Number.isInteger(maxWaitS) && maxWaitS >= 1 && maxWaitS <= 86400 ? null : "The maximum wait is a whole number of seconds from 1 to 86,400.";
  const submit = async (e: SyntheticEvent<HTMLFormElement>) => {
    e.preventDefault();
    if (choice === undefined || problem !== null) return;
    const name = textOf(getPath(choice.scenario, ["name"]), choice.label);
    const q = await create.mutateAsync({ name: `${QUEUED_PREFIX}${name}`, scenario: withQueue(choice.scenario, maxWaitS), workspace_id: current?.id });
    const b = await create.mutateAsync({ name: `${BARE_PREFIX}${name}`, scenario: withoutStage(choice.scenario), workspace_id: current?.id });
    onStarted([q.id, b.id]);
  };
  return (
    <form className={styles.form} onSubmit={(e) => void submit(e)} aria-label="Virtual queue runs">
      <div className={styles.field}>
        <label className={styles.label} htmlFor="queue-scenario">
          Base scenario
        </label>
        <select id="queue-scenario" className={styles.select} value={choice?.key ?? ""} onChange={(e) => onPick(e.target.value)}>
          {choices.map((c) => (
            <option key={c.key} value={c.key}>
              {c.label}
            </option>
          ))}
        </select>
        {choice?.description !== undefined && <p className={styles.muted}>{choice.description}</p>}
        <p className={styles.muted}>Its own admission block is replaced: the queue run uses capacity discovery (epochs of 8 s, from 15 req/s), the other none.</p>
      </div>
      <TextField label="Maximum wait (s)" inputMode="numeric" value={maxWait} onChange={(e) => setMaxWait(e.target.value)} aria-invalid={problem !== null} />
      {problem !== null && <p className={styles.error} role="alert">{problem}</p>}
      {!canWrite && <p className={styles.muted}>Viewers can read the runs; an editor starts them.</p>}
      <Button variant="primary" type="submit" disabled={!canWrite || problem !== null || create.isPending} data-testid="start-queue">
        {create.isPending ? "Starting…" : "Run both"}
      </Button>
      {create.error !== null && <ErrorBanner error={create.error} title="Could not start the runs" />}
    </form>
  );
}

function Results({ queued, bare }: { queued: Simulation; bare: Simulation }) {
  const q = asRun(queued.result);
  const b = asRun(bare.result);
  if (q === null || b === null) {
    return (
      <Card title="Running" testId="queue-progress">
        <div className={styles.stack}>
          <RunProgress simulation={queued} label="With the virtual queue" />
          <RunProgress simulation={bare} label="Without a queue" />
        </div>
      </Card>
    );
  }
  return <Charts queued={queued} q={q} b={b} />;
}

function Charts({ queued, q, b }: { queued: Simulation; q: RunDocument; b: RunDocument }) {
  const series = queueSeries(q);
  const summary = queueSummary(q);
  const end = Number(queued.scenario.duration_s) || (q.vm_steps.t_s[q.vm_steps.t_s.length - 1] ?? 0);
  const sla = getPath(queued.scenario as Scenario, ["sla", "threshold_s"]);
  const advice = recommendation(q);
  return (
    <>
      <Card title="Recommendation" subtitle={queued.name} testId="queue-recommendation">
        <p className={styles.recommendation}>{advice.text}</p>
        <p className={styles.muted}>
          Without the queue, p95 response time was {formatLatency(b.summary.latency_s.p95)} and {formatCount(Math.round(b.summary.rejected_fraction * b.summary.requests))} requests were refused.
        </p>
      </Card>
      {summary !== null && (
        <div className={styles.stats}>
          <StatCard label="Capacity estimate" value={formatRatePerS(summary.capacity_estimate_per_s)} hint={summary.converged_at_s == null ? "not converged" : `converged at ${formatDuration(summary.converged_at_s)}`} testId="stat-capacity" />
          <StatCard label="Longest wait" value={formatDuration(summary.wait_s.max)} hint={`mean ${formatDuration(summary.wait_s.mean)}, p95 ${formatDuration(summary.wait_s.p95)}`} />
          <StatCard label="Served / dropped" value={`${formatCount(summary.served)} / ${formatCount(summary.dropped)}`} unit="requests" />
          <StatCard label="p95 after the wait" value={formatLatency(q.summary.latency_s.p95)} hint={`without the queue ${formatLatency(b.summary.latency_s.p95)}`} />
        </div>
      )}
      {series === null ? (
        <ErrorBanner error={new Error("This run has no virtual-queue series (it ran without the stage).")} title="No queue figures" />
      ) : (
        <>
          <Card>
            <SimChart
              {...discoveryChart(series, end)}
              height={320}
              spans={phaseSpans(series).map((s, i) => ({ key: `${s.phase}-${i}`, x1: s.x1, x2: s.x2, color: PHASE_COLORS[s.phase] }))}
              spanLegend={PHASES.filter((p) => series.epoch_phase.includes(p)).map((p) => ({ label: PHASE_LABELS[p], color: PHASE_COLORS[p] }))}
            />
          </Card>
          <div className={styles.panels}>
            <Card>
              <SimChart {...loadChart(series, end)} height={260} />
            </Card>
            <Card>
              <SimChart {...waitChart(series, end)} height={260} />
            </Card>
          </div>
        </>
      )}
      <Card>
        <SimChart {...responseChart(q, b, end, typeof sla === "number" ? sla : null)} height={300} />
      </Card>
    </>
  );
}
