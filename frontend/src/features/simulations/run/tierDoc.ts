/** A multi-tier run's results (simulations/tier_docs.py and engine/sim/tiers.py on the server):
 * per tier figures from the summary, per tier series from the document, as charts and table rows. */
import { formatDecimal, formatLatency, formatPercent } from "../../../lib/format";
import { endOf, runColor, timeAxis } from "./runDoc";
import type { RunDocument, Steps, TierFigures, TiersDocument } from "../results";
import type { SimChartConfig, SimSeries, XY } from "../../../charts/simConfig";

type Chart = { config: SimChartConfig; series: SimSeries[] };

const stepPoints = (s: Steps): XY[] => s.t_s.map((x, i) => ({ x, y: s.value[i] ?? null }));
const linePoints = (t: number[], ys: number[]): XY[] => t.map((x, i) => ({ x, y: ys[i] ?? null }));

/** The tiers in request order with their colours; null for a single pool of VMs. */
export function tiersOfRun(doc: RunDocument): TiersDocument | null {
  const tiers = doc.tiers;
  return tiers === undefined || tiers === null || tiers.tiers.length === 0 ? null : tiers;
}

/** Allocated VMs per tier as steps (and the scaled tier's active VMs, dashed). */
export function tierVmChart(doc: RunDocument, tiers: TiersDocument): Chart {
  const series = tiers.tiers.flatMap((t, i): SimSeries[] => [
    { key: `t${i}-allocated`, label: `${t.name}: allocated VMs${t.name === tiers.scaled ? " (scaled)" : ""}`, color: runColor(i), kind: "step", points: stepPoints(t.allocated) },
    ...(t.name === tiers.scaled ? [{ key: `t${i}-active`, label: `${t.name}: active VMs (dashed)`, color: runColor(i), kind: "step" as const, dashed: true, points: stepPoints(t.active) }] : []),
  ]);
  return {
    config: {
      id: "chart-tier-vms",
      title: "VMs per tier",
      description: `Allocated VMs of each tier as steps; the autoscaling policy resizes ${tiers.scaled ?? "one tier"}, the others keep their starting VMs.`,
      x: timeAxis(endOf(doc)),
      y: { label: "VMs", format: (v) => formatDecimal(v, 0) },
    },
    series,
  };
}

/** Pool size per VM of each tier as steps, the concurrency in use (bucket means), each pool change marked. */
export function tierPoolChart(doc: RunDocument, tiers: TiersDocument): Chart {
  const bounded = tiers.tiers.map((t, i) => ({ t, i })).filter(({ t }) => t.pool.value.some((v) => v !== null));
  const unbounded = tiers.tiers.filter((t) => t.pool.value.every((v) => v === null)).map((t) => t.name);
  const series = bounded.flatMap(({ t, i }): SimSeries[] => {
    const changes = tiers.pool_changes.filter((c) => c.tier === t.name);
    return [
      { key: `t${i}-pool`, label: `${t.name}: pool size`, color: runColor(i), kind: "step", points: stepPoints(t.pool) },
      { key: `t${i}-conc`, label: `${t.name}: in use (dashed)`, color: runColor(i), kind: "line", dashed: true, points: linePoints(tiers.t_s, t.concurrency) },
      ...(changes.length > 0 ? [{ key: `t${i}-changes`, label: `${t.name}: pool changes (${changes.length})`, color: "chart-breaking" as const, kind: "points" as const, points: changes.map((c) => ({ x: c.t_s, y: c.to_pool })) }] : []),
    ];
  });
  const more = tiers.pool_changes_total > tiers.pool_changes.length ? ` (the first ${tiers.pool_changes.length} of ${tiers.pool_changes_total} changes marked)` : "";
  return {
    config: {
      id: "chart-tier-pools",
      title: "Pool size per VM",
      description: `Each tier's pool limit (threads or connections per VM, mean over its active VMs) as steps, with the slots in use averaged per ${formatDecimal(tiers.bucket_s, 1)} s; dots mark each pool the policy resized${more}.${unbounded.length > 0 ? ` Unbounded: ${unbounded.join(", ")}.` : ""}`,
      x: timeAxis(endOf(doc)),
      y: { label: "requests per VM", format: (v) => formatDecimal(v, 0) },
    },
    series,
  };
}

/** Mean utilisation of each tier's active VMs over time. */
export function tierUtilizationChart(doc: RunDocument, tiers: TiersDocument): Chart {
  return {
    config: {
      id: "chart-tier-utilization",
      title: "Utilisation per tier",
      description: `Mean busy fraction of each tier's active VMs' cores, averaged per ${formatDecimal(tiers.bucket_s, 1)} s.`,
      x: timeAxis(endOf(doc)),
      y: { label: "utilisation", format: (v) => formatPercent(v, 0), domain: [0, 1] },
    },
    series: tiers.tiers.map((t, i) => ({ key: `t${i}-util`, label: t.name, color: runColor(i), kind: "line", points: linePoints(tiers.t_s, t.utilization) })),
  };
}

const pool = (v: number | null) => (v === null ? "unbounded" : formatDecimal(v, 0));

/** "10" when every VM has the same pool, else "8–12"; "unbounded" for null. */
export function poolRange(values: (number | null)[]): string {
  if (values.length === 0) return "—";
  if (values.some((v) => v === null)) return values.every((v) => v === null) ? "unbounded" : "some unbounded";
  const nums = values as number[];
  const low = Math.min(...nums);
  const high = Math.max(...nums);
  return low === high ? pool(low) : `${pool(low)}–${pool(high)}`;
}

export interface TierRow {
  label: string;
  unit: string;
  values: string[];
}

/** The per-tier table: one row per figure, one column per tier (in request order). */
export function tierRows(names: string[], figures: Record<string, TierFigures>): TierRow[] {
  const of = (f: (t: TierFigures) => string) => names.map((n) => (figures[n] === undefined ? "—" : f(figures[n])));
  return [
    { label: "Time at the tier (own)", unit: "mean; queue + service here", values: of((t) => formatLatency(t.own_s)) },
    { label: "Share of the latency", unit: "own / end to end", values: of((t) => (t.latency_share === null ? "—" : formatPercent(t.latency_share, 0))) },
    { label: "Residence", unit: "mean; incl. the tiers below", values: of((t) => formatLatency(t.residence_s)) },
    { label: "VMs mean / max", unit: "allocated", values: of((t) => `${formatDecimal(t.vms.mean_allocated, 1)} / ${formatDecimal(t.vms.max_allocated, 0)}`) },
    { label: "Utilisation", unit: "mean of active VMs", values: of((t) => formatPercent(t.utilization_mean, 0)) },
    { label: "Concurrency mean / peak", unit: "slots in use per VM / whole tier", values: of((t) => `${formatDecimal(t.concurrency_mean, 1)} / ${formatDecimal(t.concurrency_peak, 0)}`) },
    { label: "Pool size start → end", unit: "per VM", values: of((t) => `${pool(t.pool.initial)} → ${poolRange(t.pool.final)}`) },
    { label: "Pool changes", unit: "by the policy", values: of((t) => formatDecimal(t.pool_changes, 0)) },
    { label: "Cost", unit: "price × VM-hours", values: of((t) => `${formatDecimal(t.vms.cost, 2)} (${formatDecimal(t.vms.vm_hours, 1)} VM·h)`) },
  ];
}
