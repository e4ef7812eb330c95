/** A sweep's runs: the cost against SLA-violation frontier (Pareto points highlighted, each point
 * clickable) and the table of runs. */
import { useState } from "react";
import { Button, ButtonLink } from "../../../components/Button";
import { Card } from "../../../components/Card";
import { Table, type Column } from "../../../components/Table";
import { formatDecimal, formatLatency, formatPercent } from "../../../lib/format";
import type { Simulation } from "../api";
import { describeValues, frontierMeasure, frontierPoints, paretoFront, sweepRunPath } from "./frontier";
import type { SweepDocument, SweepRow } from "../results";
import { SimChart } from "../../../charts/SimChart";
import { roundTicks, type SimChartConfig } from "../../../charts/simConfig";
import { sweepValueLabel } from "./sweep";
import styles from "../Simulations.module.css";

export function SweepView({ simulation, doc }: { simulation: Simulation; doc: SweepDocument }) {
  const [selected, setSelected] = useState<number | null>(null);
  const measure = frontierMeasure(doc);
  const points = frontierPoints(doc);
  const front = paretoFront(points);
  const onFront = new Set(front.map((p) => p.index));
  const format = measure === "sla" ? (v: number) => formatPercent(v, 1) : formatLatency;
  const config: SimChartConfig = {
    id: "chart-frontier",
    title: measure === "sla" ? "Cost against SLA violations" : "Cost against p95 time",
    description: `One point per run; the Pareto frontier (no run is both cheaper and better) is highlighted. Click a point for its run.`,
    x: costAxis(points.map((p) => p.cost)),
    y: { label: measure === "sla" ? "SLA violations (share of windows)" : "p95 (PLT with pages)", format },
  };
  const series = [
    { key: "front", label: "Pareto frontier", color: "chart-knee" as const, kind: "step" as const, points: front.map((p) => ({ x: p.cost, y: p.badness })) },
    { key: "runs", label: `Other runs (${points.length - front.length})`, color: "chart-requests" as const, kind: "points" as const, points: points.filter((p) => !onFront.has(p.index)).map((p) => ({ x: p.cost, y: p.badness, tag: p.index })) },
    { key: "pareto", label: `Pareto-optimal runs (${front.length})`, color: "chart-breaking" as const, kind: "points" as const, points: front.map((p) => ({ x: p.cost, y: p.badness, tag: p.index })) },
  ];
  const row = doc.runs.find((r) => r.index === selected) ?? null;
  return (
    <div className={styles.stack}>
      <div className={styles.editor}>
        <Card>
          <SimChart config={config} series={series} height={360} onPointClick={(p) => setSelected(p.tag ?? null)} />
        </Card>
        <RunDetails simulation={simulation} row={row} pareto={row !== null && onFront.has(row.index)} />
      </div>
      <Card title="Runs" subtitle={doc.axes.map((a) => `${a.path}: ${a.values.map(sweepValueLabel).join(", ")}`).join(" × ")} flush>
        <Table columns={columns(doc, onFront, setSelected)} rows={doc.runs} rowKey={(r) => r.index} testId="sweep-runs" caption="The sweep's runs" />
      </Card>
    </div>
  );
}

/** A cost axis padded around the runs, with enough decimals to tell its ticks apart. */
function costAxis(costs: number[]): SimChartConfig["x"] {
  const low = Math.min(...costs);
  const high = Math.max(...costs);
  const pad = Math.max((high - low) * 0.08, Math.abs(high) * 0.005, 1e-6);
  const domain: [number, number] = [Math.max(0, low - pad), high + pad];
  const ticks = roundTicks(domain[0], domain[1]);
  const step = (ticks[1] ?? 1) - (ticks[0] ?? 0);
  const digits = Math.max(0, Math.ceil(-Math.log10(step)) + 1);
  return { label: "cost (price × VM-hours)", format: (v) => formatDecimal(v, digits), domain, ticks };
}

function columns(doc: SweepDocument, onFront: Set<number>, select: (i: number) => void): Column<SweepRow>[] {
  const axes: Column<SweepRow>[] = doc.axes.map((a) => ({ key: a.path, header: a.path, render: (r) => sweepValueLabel(r.values[a.path]), align: "right", mono: true }));
  return [
    ...axes,
    { key: "cost", header: "Cost", render: (r) => formatDecimal(r.cost, 2), align: "right" },
    { key: "vmh", header: "VM·h", render: (r) => formatDecimal(r.vm_hours, 1), align: "right" },
    { key: "sla", header: "SLA violations", render: (r) => formatPercent(r.sla_violation_fraction, 2), align: "right" },
    { key: "p95", header: "p95 PLT / latency", render: (r) => formatLatency(r.plt_p95_s ?? r.latency_p95_s), align: "right" },
    { key: "actions", header: "Actions", render: (r) => String(r.summary.vms.scaling_actions), align: "right" },
    { key: "pareto", header: "Pareto", render: (r) => (onFront.has(r.index) ? "✓" : ""), align: "right" },
    { key: "open", header: "", render: (r) => <Button variant="ghost" size="small" onClick={() => select(r.index)}>Details</Button> },
  ];
}

function RunDetails({ simulation, row, pareto }: { simulation: Simulation; row: SweepRow | null; pareto: boolean }) {
  if (row === null) {
    return (
      <Card title="A run of the sweep" testId="sweep-run-details">
        <p className={styles.muted}>Click a point of the frontier (or “Details” in the table) to see that run.</p>
      </Card>
    );
  }
  const s = row.summary;
  return (
    <Card title={`Run ${row.index + 1}${pareto ? " · Pareto-optimal" : ""}`} subtitle={describeValues(row)} testId="sweep-run-details">
      <dl className={styles.details}>
        <dt>Cost</dt>
        <dd>{formatDecimal(row.cost, 2)} ({formatDecimal(row.vm_hours, 1)} VM·h)</dd>
        <dt>SLA violations</dt>
        <dd>{formatPercent(row.sla_violation_fraction, 2)} of windows</dd>
        <dt>p95 PLT</dt>
        <dd>{formatLatency(row.plt_p95_s)}</dd>
        <dt>p95 latency</dt>
        <dd>{formatLatency(row.latency_p95_s)}</dd>
        <dt>Scaling actions</dt>
        <dd>{s.vms.scaling_actions} (max {s.vms.max_allocated} VMs)</dd>
        <dt>Rejected</dt>
        <dd>{formatPercent(row.rejected_fraction, 2)}</dd>
      </dl>
      <p className={styles.hint}>The sweep kept every run's result: opening this run shows all its charts.</p>
      <ButtonLink to={sweepRunPath(simulation.id, row.index)} data-testid="open-sweep-run">
        Open this run
      </ButtonLink>
    </Card>
  );
}
