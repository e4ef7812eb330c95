/** "Class policies": the four admission policies of docs/methods/admission.md on one scenario, over a range of offered
 * load, as one sweep; then p95 per class against load with the SLA, rejected normal requests, K(t). */
import { useState, type SyntheticEvent } from "react";
import { Button } from "../../components/Button";
import { Card } from "../../components/Card";
import { EmptyState } from "../../components/EmptyState";
import { ErrorBanner } from "../../components/ErrorBanner";
import { PageHeader } from "../../components/PageHeader";
import { Loading } from "../../components/Spinner";
import { Table, type Column } from "../../components/Table";
import { TextField } from "../../components/TextField";
import { formatLatency, formatPercent } from "../../lib/format";
import { useDocumentTitle } from "../../lib/useDocumentTitle";
import type { Simulation, SweepIn } from "../simulations/api";
import { useCreateSimulation, useSweepRun } from "../simulations/queries";
import { asRun } from "../simulations/run/runDoc";
import { getPath, setPath, textOf, type Json, type Scenario } from "../simulations/scenarioDoc";
import { SimChart } from "../../charts/SimChart";
import { useCanWrite } from "../workspaces/useRole";
import { useWorkspace } from "../workspaces/workspaceContext";
import {
  classP95Chart,
  comparisonSweep,
  formatLoad,
  kChart,
  limitsProblem,
  loadOf,
  loadValues,
  orderedClasses,
  partitionSeries,
  presetComparison,
  policyOf,
  POLICY_LABELS,
  rejectedNormalChart,
  scenarioProblem,
  verdicts,
  workloadClasses,
  type PartitionLimits,
  partitionFigures,
  type PolicySweep,
  type WorkloadClassInfo,
} from "./classPolicies";
import { PoliciesNav, RunProgress } from "./PolicyRuns";
import { formChoices, pickedRunNames, SHOWN_KEY, type ShownRun } from "./shownScenario";
import { UnavailableDatasets } from "./UnavailableDatasets";
import { useScenarioChoices, useShownIds, useTracked, type ScenarioChoice } from "./usePolicyRuns";
import styles from "./Policies.module.css";

export const SWEEP_PREFIX = "Class policies · ";
const K_PREFIX = { dynamic: "Class policies K(t) · DynamicPart", static: "Class policies K(t) · StaticPart" };

const slaOf = (scenario: Scenario): number | null => {
  const t = getPath(scenario, ["sla", "threshold_s"]);
  return typeof t === "number" ? t : null;
};

export function ClassPoliciesPage() {
  useDocumentTitle("Class policies");
  const { choices, unavailable, loading } = useScenarioChoices("class-policies");
  const [picked, setPicked] = useState<string | null>(null);
  const exact = picked === null ? [] : [...pickedRunNames(choices.find((c) => c.key === picked), [SWEEP_PREFIX]), null, null];
  const { ids, show } = useShownIds(["sweep", "kd", "ks"], [SWEEP_PREFIX, K_PREFIX.dynamic, K_PREFIX.static], exact);
  const sweep = useTracked(ids[0] ?? null);
  const shown = sweep.data === undefined ? null : { name: sweep.data.name, scenario: sweep.data.scenario as Scenario };
  const pick = (next: string) => {
    setPicked(next === SHOWN_KEY ? null : next);
    if (next !== SHOWN_KEY) show([]);
  };
  return (
    <div className={styles.stack}>
      <PageHeader
        title="Class policies"
        subtitle="Protect top users under overload: the QoS-blind front end, SwitchAdm, StaticPart and DynamicPart on the same scenario, over a range of offered load."
      />
      <PoliciesNav />
      <div className={styles.grid}>
        <Card title="Comparison" subtitle="One sweep: the four policies × the offered loads.">
          {loading ? <Loading label="Loading the scenarios…" /> : <ComparisonForm choices={choices} picked={picked} shown={shown} shownSweep={sweep.data?.sweep ?? null} onPick={pick} onStarted={(s) => show([s.id])} />}
          <UnavailableDatasets items={unavailable} />
        </Card>
        <div className={styles.stack}>
          {sweep.error !== null && <ErrorBanner error={sweep.error} title="Could not load the comparison" />}
          {ids[0] === null && (
            <EmptyState title="No comparison yet" testId="classes-empty">
              {picked === null ? "Pick a scenario with top and normal classes and the loads, then press " : "This scenario has not been compared yet: set the loads, then press "}
              <strong>Compare policies</strong>.
            </EmptyState>
          )}
          {sweep.data !== undefined && <SweepResults simulation={sweep.data} kIds={[ids[1] ?? null, ids[2] ?? null]} onK={(d, s) => show([sweep.data.id, d, s])} />}
          {ids[0] !== null && sweep.data === undefined && sweep.error === null && <Loading label="Loading the comparison…" />}
        </div>
      </div>
    </div>
  );
}

const DEFAULT_LIMITS = { maxconn_sla: "5", maxconn: "10", maxconn_static_sla: "", period_s: "10" };

interface FormProps {
  choices: ScenarioChoice[];
  picked: string | null;
  /** The comparison shown beside the form: the form shows its scenario, loads and limits until the user picks another. */
  shown: ShownRun | null;
  shownSweep: SweepIn | null;
  onPick: (key: string) => void;
  onStarted: (s: Simulation) => void;
}

function ComparisonForm({ choices: listed, picked, shown, shownSweep, onPick, onStarted }: FormProps) {
  const { current } = useWorkspace();
  const canWrite = useCanWrite();
  const [range, setRange] = useState({ from: "100", to: "300", steps: "5" });
  const [limits, setLimits] = useState(DEFAULT_LIMITS);
  const start = useCreateSimulation(onStarted);
  const { choices, key } = formChoices(listed, picked, shown, SWEEP_PREFIX);
  const choice = choices.find((c) => c.key === key);
  const following = picked === null ? shownSweep : null;
  const [followed, setFollowed] = useState<SweepIn | null>(null);
  if (following !== followed) {
    // The shown comparison changed: the form takes its loads and limits (React's "adjust state on a prop change").
    setFollowed(following);
    const preset = presetComparison(following);
    if (preset !== null) {
      setRange(preset.range);
      setLimits(preset.limits);
    }
  }
  const parsed: PartitionLimits = {
    maxconn_sla: Number(limits.maxconn_sla),
    maxconn: Number(limits.maxconn),
    maxconn_static_sla: limits.maxconn_static_sla.trim() === "" ? null : Number(limits.maxconn_static_sla),
    period_s: Number(limits.period_s),
  };
  const loads = loadValues(Number(range.from), Number(range.to), Number(range.steps));
  const problem = choice === undefined ? "No scenario to compare." : (scenarioProblem(choice.scenario) ?? (typeof loads === "string" ? loads : limitsProblem(parsed)));
  const pick = (next: string) => {
    onPick(next);
    const preset = presetComparison(choices.find((c) => c.key === next)?.sweep ?? null);
    if (preset !== null) {
      setRange(preset.range);
      setLimits(preset.limits);
    }
  };
  const submit = (e: SyntheticEvent<HTMLFormElement>) => {
    e.preventDefault();
    if (choice === undefined || typeof loads === "string" || problem !== null) return;
    const scenario = setPath(choice.scenario, ["admission"], { policy: "none" });
    start.mutate({ name: `${SWEEP_PREFIX}${textOf(getPath(scenario, ["name"]), choice.label)}`, scenario, sweep: comparisonSweep(loads, parsed), workspace_id: current?.id });
  };
  const classes = choice === undefined ? null : workloadClasses(choice.scenario);
  return (
    <form className={styles.form} onSubmit={submit} aria-label="Class policies comparison">
      <div className={styles.field}>
        <label className={styles.label} htmlFor="classes-scenario">
          Base scenario
        </label>
        <select id="classes-scenario" className={styles.select} value={choice?.key ?? ""} onChange={(e) => pick(e.target.value)}>
          {choices.map((c) => (
            <option key={c.key} value={c.key}>
              {c.label}
            </option>
          ))}
        </select>
        {choice?.description !== undefined && <p className={styles.muted}>{choice.description}</p>}
        {classes !== null && <p className={styles.muted}>{classes.map((c) => `${c.name} (${c.kind}, ${c.user}, ${formatPercent(c.weight, 0)})`).join(" · ")}</p>}
      </div>
      <div className={styles.fields}>
        <TextField label="Offered load from (req/s)" inputMode="decimal" value={range.from} onChange={(e) => setRange({ ...range, from: e.target.value })} />
        <TextField label="to (req/s)" inputMode="decimal" value={range.to} onChange={(e) => setRange({ ...range, to: e.target.value })} />
        <TextField label="Load steps (2–12)" inputMode="numeric" value={range.steps} onChange={(e) => setRange({ ...range, steps: e.target.value })} />
        <TextField label="Control period (s)" inputMode="decimal" value={limits.period_s} onChange={(e) => setLimits({ ...limits, period_s: e.target.value })} />
        <TextField label="MaxConn_D(T_D) per server (connections)" inputMode="numeric" value={limits.maxconn_sla} onChange={(e) => setLimits({ ...limits, maxconn_sla: e.target.value })} />
        <TextField label="MaxConn_D per server (connections)" inputMode="numeric" value={limits.maxconn} onChange={(e) => setLimits({ ...limits, maxconn: e.target.value })} />
        <TextField label="MaxConn_S(T_S) per server (blank: no limit)" inputMode="numeric" value={limits.maxconn_static_sla} onChange={(e) => setLimits({ ...limits, maxconn_static_sla: e.target.value })} />
      </div>
      <p className={styles.muted}>
        {typeof loads === "string" ? "" : `${loads.length * 4} runs: loads ${loads.join(", ")} req/s. `}MaxConn_D(T_D) is the dynamic connections a server holds while it meets the SLA; MaxConn_D the most it sustains (the capacity page's SLA panel reports both).
      </p>
      {problem !== null && <p className={styles.error} role="alert">{problem}</p>}
      {!canWrite && <p className={styles.muted}>Viewers can read the comparisons; an editor starts them.</p>}
      <Button variant="primary" type="submit" disabled={!canWrite || problem !== null || start.isPending} data-testid="start-classes">
        {start.isPending ? "Starting…" : "Compare policies"}
      </Button>
      {start.error !== null && <ErrorBanner error={start.error} title="Could not start the comparison" />}
    </form>
  );
}

function SweepResults({ simulation, kIds, onK }: { simulation: Simulation; kIds: (number | null)[]; onK: (dynamicId: number, staticId: number) => void }) {
  const doc = (simulation.result as PolicySweep | null | undefined)?.kind === "sweep" ? (simulation.result as unknown as PolicySweep) : null;
  const scenario = simulation.scenario as Scenario;
  const classes = workloadClasses(scenario);
  const slaS = slaOf(scenario);
  if (doc === null) {
    return (
      <Card title={simulation.name} testId="classes-progress">
        <RunProgress simulation={simulation} label="Runs" />
        {simulation.job?.status === "cancelled" && <p className={styles.muted}>This comparison was cancelled.</p>}
      </Card>
    );
  }
  if (classes === null) return <ErrorBanner error={new Error("The compared scenario has no workload classes.")} title="Nothing to compare" />;
  const ordered = orderedClasses(classes);
  return (
    <>
      <Card title="At the highest load" subtitle={simulation.name} testId="classes-verdicts">
        <ol className={styles.verdicts}>
          {verdicts(doc, classes, slaS).map((v) => (
            <li key={v.policy}>{v.text}</li>
          ))}
        </ol>
      </Card>
      <div className={styles.panels}>
        {ordered.map((c) => (
          <Card key={c.name}>
            <SimChart {...classP95Chart(doc, c, slaS)} height={260} />
          </Card>
        ))}
      </div>
      <Card>
        <SimChart {...rejectedNormalChart(doc, classes)} height={280} />
      </Card>
      <KCard simulation={simulation} doc={doc} kIds={kIds} onK={onK} />
      <Card title="Runs" flush>
        <Table columns={runColumns(ordered)} rows={doc.runs} rowKey={(r) => r.index} caption="The comparison's runs" testId="classes-runs" dense />
      </Card>
    </>
  );
}

type Row = PolicySweep["runs"][number];

/** "p95 dynamic_normal" as a header that may wrap after the prefix and after each underscore. */
function BreakableName({ prefix, name }: { prefix: string; name: string }) {
  const parts = name.split("_");
  return (
    <>
      {prefix}{" "}
      {parts.map((part, i) => (
        <span key={i}>
          {part}
          {i < parts.length - 1 && (
            <>
              _<wbr />
            </>
          )}
        </span>
      ))}
    </>
  );
}

function runColumns(classes: WorkloadClassInfo[]): Column<Row>[] {
  return [
    {
      // one column for the run (sticky while the figures scroll sideways on a phone)
      key: "run",
      header: "Policy at load",
      render: (r) => {
        const p = policyOf(r);
        const load = loadOf(r);
        return `${p === null ? "?" : POLICY_LABELS[p]} at ${load === null ? "?" : formatLoad(load)}`;
      },
    },
    ...classes.map((c): Column<Row> => ({ key: c.name, header: <BreakableName prefix="p95" name={c.name} />, render: (r) => formatLatency(r.classes?.[c.name]?.latency_p95_s), align: "right" })),
    { key: "rejected", header: "Rejected", render: (r) => formatPercent(r.rejected_fraction, 1), align: "right" },
    { key: "k", header: "K mean", render: (r) => partitionFigures(r.admission)?.k_mean.toFixed(2) ?? "—", align: "right" },
  ];
}

function KCard({ simulation, doc, kIds, onK }: { simulation: Simulation; doc: PolicySweep; kIds: (number | null)[]; onK: (d: number, s: number) => void }) {
  const loads = [...new Set(doc.runs.flatMap((r) => loadOf(r) ?? []))].sort((a, b) => a - b);
  const [load, setLoad] = useState<number | null>(null);
  const chosen = load ?? loads[loads.length - 1] ?? null;
  const at = (policy: "dynamic_part" | "static_part") => doc.runs.find((r) => policyOf(r) === policy && loadOf(r) === chosen);
  const dynamicRow = at("dynamic_part");
  const staticRow = at("static_part");
  const servers = getPath(simulation.scenario as Scenario, ["cluster", "vms", "max"]);
  return (
    <Card title="K(t): the High Set over time" subtitle="DynamicPart's run at one load (StaticPart's for contrast), as the sweep stored it." testId="classes-k">
      <div className={styles.row}>
        <label className={styles.label} htmlFor="k-load">
          Load
        </label>
        <select id="k-load" className={styles.select} value={chosen ?? ""} onChange={(e) => setLoad(Number(e.target.value))}>
          {loads.map((l) => (
            <option key={l} value={l}>
              {l} req/s
            </option>
          ))}
        </select>
      </div>
      {dynamicRow === undefined ? (
        <p className={styles.muted}>The comparison has no DynamicPart run at this load.</p>
      ) : (
        <StoredK key={`${simulation.id}-${dynamicRow.index}`} simulation={simulation} dynamicIndex={dynamicRow.index} staticIndex={staticRow?.index ?? null} servers={typeof servers === "number" ? servers : null} load={chosen ?? 0} kIds={kIds} onK={onK} />
      )}
    </Card>
  );
}

/** K(t) from the sweep's stored runs; a sweep stored before runs were kept simulates the two again. */
function StoredK({ simulation, dynamicIndex, staticIndex, servers, load, kIds, onK }: { simulation: Simulation; dynamicIndex: number; staticIndex: number | null; servers: number | null; load: number; kIds: (number | null)[]; onK: (d: number, s: number) => void }) {
  const dynamic = useSweepRun(simulation.id, dynamicIndex);
  const fixed = useSweepRun(simulation.id, staticIndex ?? dynamicIndex);
  const dSeries = partitionSeries(asRun(dynamic.data?.result ?? null));
  const sSeries = staticIndex === null ? null : partitionSeries(asRun(fixed.data?.result ?? null));
  if (dynamic.isLoading) return <Loading label="Loading the stored runs…" />;
  if (dSeries !== null) return <SimChart {...kChart(dSeries, sSeries, servers)} height={260} />;
  return <RerunK simulation={simulation} load={load} kIds={kIds} onK={onK} servers={servers} />;
}

/** For sweeps without stored runs: DynamicPart and StaticPart at the load as two new runs. */
function RerunK({ simulation, load, kIds, onK, servers }: { simulation: Simulation; load: number; kIds: (number | null)[]; onK: (d: number, s: number) => void; servers: number | null }) {
  const { current } = useWorkspace();
  const canWrite = useCanWrite();
  const dynamic = useTracked(kIds[0] ?? null);
  const fixed = useTracked(kIds[1] ?? null);
  const create = useCreateSimulation(() => undefined);
  const block = (simulation.sweep?.values ?? []).find((v) => getPath(v as Json, ["policy"]) === "dynamic_part") as Record<string, Json> | undefined;
  const run = async () => {
    if (block === undefined) return;
    const scenario = setPath(simulation.scenario as Scenario, ["workload", "arrivals", "rate_per_s"], load);
    const body = (policy: "dynamic_part" | "static_part", prefix: string) => ({ name: `${prefix} · ${load}/s`, scenario: setPath(scenario, ["admission"], { ...block, policy }), workspace_id: current?.id, seed: simulation.seed });
    const d = await create.mutateAsync(body("dynamic_part", K_PREFIX.dynamic));
    const s = await create.mutateAsync(body("static_part", K_PREFIX.static));
    onK(d.id, s.id);
  };
  const dSeries = partitionSeries(asRun(dynamic.data?.result ?? null));
  return (
    <div className={styles.stack}>
      {dSeries === null && <p className={styles.muted}>This comparison was stored before sweeps kept their runs: simulate DynamicPart and StaticPart at {load} req/s again to see K(t).</p>}
      <div className={styles.row}>
        <Button onClick={() => void run()} disabled={!canWrite || create.isPending || block === undefined} data-testid="start-k">
          {create.isPending ? "Starting…" : "Run DynamicPart and StaticPart"}
        </Button>
        {dynamic.data !== undefined && <span className={styles.muted}>{dynamic.data.name}</span>}
      </div>
      {create.error !== null && <ErrorBanner error={create.error} title="Could not start the runs" />}
      {dynamic.data !== undefined && <RunProgress simulation={dynamic.data} label="DynamicPart run" />}
      {fixed.data !== undefined && <RunProgress simulation={fixed.data} label="StaticPart run" />}
      {dSeries !== null && <SimChart {...kChart(dSeries, partitionSeries(asRun(fixed.data?.result ?? null)), servers)} height={260} />}
    </div>
  );
}
