/** The class policies comparison (docs/methods/admission.md): one sweep of the admission block × the offered load,
 * and the chart data drawn from it (p95 per class against load, rejected normal requests, K(t)). */
import type { ColorToken } from "../../charts/tokens";
import { formatDecimal, formatLatency, formatPercent } from "../../lib/format";
import type { SweepIn } from "../simulations/api";
import type { PartitionFigures, PartitionSeries, QueueFigures, RunDocument, SweepDocument, SweepRow } from "../simulations/results";
import { getPath, textOf, type Json, type Scenario } from "../simulations/scenarioDoc";
import { formatSimClock, timeTicksS, type SimChartConfig, type SimSeries } from "../../charts/simConfig";

export const POLICIES = ["none", "switch_adm", "static_part", "dynamic_part"] as const;
export type PartitionPolicy = (typeof POLICIES)[number];

export const POLICY_LABELS: Record<PartitionPolicy, string> = {
  none: "QoS-blind (none)",
  switch_adm: "SwitchAdm",
  static_part: "StaticPart",
  dynamic_part: "DynamicPart",
};

export const POLICY_COLORS: Record<PartitionPolicy, ColorToken> = {
  none: "chart-breaking",
  switch_adm: "chart-throughput",
  static_part: "chart-model",
  dynamic_part: "chart-knee",
};

export const ADMISSION_PATH = "admission";
export const LOAD_PATH = "workload.arrivals.rate_per_s";

/** Per server: MaxConn_D(T_D), MaxConn_D, MaxConn_S(T_S) (optional) and DynamicPart's period. */
export interface PartitionLimits {
  maxconn_sla: number;
  maxconn: number;
  maxconn_static_sla: number | null;
  period_s: number;
}

/** A row of a sweep over the admission block, and the sweep. */
export type PolicyRow = SweepRow;
export type PolicySweep = SweepDocument;

/** The K figures of a partition policy's run; null for other stages. */
export function partitionFigures(a: PartitionFigures | QueueFigures | null | undefined): PartitionFigures | null {
  return a !== null && a !== undefined && "k_mean" in a ? a : null;
}

export interface WorkloadClassInfo {
  name: string;
  kind: "static" | "dynamic";
  user: "top" | "normal";
  /** The class's expected share of the requests (its share, or its rate over the total). */
  weight: number;
}

/** Evenly spaced offered loads from `from` to `to` (inclusive), rounded to 0.1 req/s. */
export function loadValues(from: number, to: number, steps: number): number[] | string {
  if (!(from > 0) || !(to > from)) return "The loads need 0 < from < to.";
  if (!Number.isInteger(steps) || steps < 2 || steps > 12) return "Between 2 and 12 load steps.";
  return Array.from({ length: steps }, (_, i) => Math.round((from + ((to - from) * i) / (steps - 1)) * 10) / 10);
}

/** The admission block of one policy. */
export function admissionFor(policy: PartitionPolicy, limits: PartitionLimits): Record<string, Json> {
  if (policy === "none") return { policy: "none" };
  const { maxconn_static_sla: staticSla, ...rest } = limits;
  return { policy, ...rest, ...(staticSla === null ? {} : { maxconn_static_sla: staticSla }) };
}

/** The problem with the limits, or null. */
export function limitsProblem(l: PartitionLimits): string | null {
  const whole = (v: number) => Number.isInteger(v) && v >= 1;
  if (!whole(l.maxconn_sla) || !whole(l.maxconn)) return "MaxConn values are whole numbers of connections ≥ 1.";
  if (l.maxconn_sla > l.maxconn) return "MaxConn_D(T_D) must be ≤ MaxConn_D.";
  if (l.maxconn_static_sla !== null && !whole(l.maxconn_static_sla)) return "MaxConn_S(T_S) is a whole number ≥ 1 (or blank).";
  if (!(l.period_s > 0)) return "The control period must be > 0 s.";
  return null;
}

/** The one sweep that compares the four policies over the loads. */
export function comparisonSweep(loads: number[], limits: PartitionLimits): SweepIn {
  return { path: ADMISSION_PATH, values: POLICIES.map((p) => admissionFor(p, limits)), second: { path: LOAD_PATH, values: loads } };
}

/** The scenario's classes with kind, user and expected share; null when it has no classes. */
export function workloadClasses(scenario: Scenario): WorkloadClassInfo[] | null {
  const classes = getPath(scenario, ["workload", "classes"]);
  if (!Array.isArray(classes)) return null;
  const raw = classes.map((c) => {
    const share = getPath(c, ["share"]);
    const rate = getPath(c, ["arrivals", "rate_per_s"]);
    return {
      name: textOf(getPath(c, ["name"]), "?"),
      kind: getPath(c, ["kind"]) === "static" ? ("static" as const) : ("dynamic" as const),
      user: getPath(c, ["user"]) === "top" ? ("top" as const) : ("normal" as const),
      weight: typeof share === "number" ? share : typeof rate === "number" ? rate : 1,
    };
  });
  const total = raw.reduce((sum, c) => sum + c.weight, 0);
  return raw.map((c) => ({ ...c, weight: total > 0 ? c.weight / total : 0 }));
}

/** Why the scenario cannot be compared, or null: the policies act on top/normal classes. */
export function scenarioProblem(scenario: Scenario): string | null {
  const classes = workloadClasses(scenario);
  if (classes === null) return "The scenario has one class: the policies need workload classes with kind (static/dynamic) and user (top/normal).";
  if (!classes.some((c) => c.user === "top")) return "No class is a top-user class: mark one with user: top.";
  if (!classes.some((c) => c.user === "normal")) return "No class is a normal-user class: every request would be top.";
  if (typeof getPath(scenario, ["workload", "arrivals", "rate_per_s"]) !== "number") {
    return "The offered load is swept through workload.arrivals.rate_per_s: give the workload one rate and each class a share.";
  }
  return null;
}

export function policyOf(row: PolicyRow): PartitionPolicy | null {
  const p = getPath(row.values[ADMISSION_PATH] as Json | undefined, ["policy"]); // a sweep value: JSON
  return (POLICIES as readonly Json[]).includes(p ?? null) ? (p as PartitionPolicy) : null;
}

export function loadOf(row: PolicyRow): number | null {
  const v = row.values[LOAD_PATH];
  return typeof v === "number" ? v : null;
}

/** The sweep's rows of one policy, by rising load. */
function rowsOf(doc: PolicySweep, policy: PartitionPolicy): { load: number; row: PolicyRow }[] {
  return doc.runs
    .flatMap((row) => {
      const load = loadOf(row);
      return policyOf(row) === policy && load !== null ? [{ load, row }] : [];
    })
    .sort((a, b) => a.load - b.load);
}

export const formatLoad = (v: number) => `${formatDecimal(v, v < 10 ? 1 : 0)}/s`;

function loadAxis(doc: PolicySweep): SimChartConfig["x"] {
  const loads = doc.runs.flatMap((r) => loadOf(r) ?? []);
  const low = Math.min(...loads);
  const high = Math.max(...loads);
  return { label: "offered load (requests/s)", format: formatLoad, domain: [low, high] };
}

/** Top classes first, then by name. */
export function orderedClasses(classes: WorkloadClassInfo[]): WorkloadClassInfo[] {
  return [...classes].sort((a, b) => (a.user === b.user ? a.name.localeCompare(b.name) : a.user === "top" ? -1 : 1));
}

/** p95 latency of one class against offered load, a line per policy, with the SLA line. */
export function classP95Chart(doc: PolicySweep, cls: WorkloadClassInfo, slaS: number | null): { config: SimChartConfig; series: SimSeries[] } {
  const series = POLICIES.map((policy): SimSeries => ({
    key: policy,
    label: POLICY_LABELS[policy],
    color: POLICY_COLORS[policy],
    kind: "line",
    points: rowsOf(doc, policy).map(({ load, row }) => {
      const f = row.classes?.[cls.name];
      return { x: load, y: f === undefined ? null : (f.plt_p95_s ?? f.latency_p95_s) };
    }),
  }));
  const top = Math.max(slaS ?? 0, ...series.flatMap((s) => s.points.map((p) => p.y ?? 0)));
  return {
    config: {
      id: `chart-class-p95-${cls.name}`,
      title: `${cls.name} (${cls.kind}, ${cls.user})`,
      description: `p95 latency of the ${cls.name} requests served, per policy, against the offered load; the dashed line is the SLA.`,
      x: loadAxis(doc),
      y: { label: "p95 latency", format: formatLatency, scale: "log", domain: logDomain(top) },
      refLines: slaS === null ? [] : [{ key: "sla", label: `SLA ${formatLatency(slaS)}`, color: "chart-sla", y: slaS }],
    },
    series,
  };
}

/** A log axis from 1 ms to above the highest value (latency spans decades once a policy fails). */
function logDomain(top: number): [number, number] {
  return [0.001, Math.max(0.01, 10 ** Math.ceil(Math.log10(Math.max(top, 1e-3) * 1.05)))];
}

/** The share of normal-user requests refused, per policy, against offered load (classes weighted by their share). */
export function rejectedNormalChart(doc: PolicySweep, classes: WorkloadClassInfo[]): { config: SimChartConfig; series: SimSeries[] } {
  const normal = classes.filter((c) => c.user === "normal");
  const total = normal.reduce((s, c) => s + c.weight, 0);
  const fraction = (row: PolicyRow): number | null => {
    if (row.classes === undefined || total <= 0) return null;
    return normal.reduce((s, c) => s + c.weight * (row.classes?.[c.name]?.rejected_fraction ?? 0), 0) / total;
  };
  return {
    config: {
      id: "chart-rejected-normal",
      title: "Normal requests rejected",
      description: "The share of normal-user requests the front end refused, per policy, against the offered load (top requests are protected).",
      x: loadAxis(doc),
      y: { label: "normal requests rejected", format: (v) => formatPercent(v, 0), domain: [0, 1] },
    },
    series: POLICIES.map((policy) => ({
      key: policy,
      label: POLICY_LABELS[policy],
      color: POLICY_COLORS[policy],
      kind: "line" as const,
      points: rowsOf(doc, policy).map(({ load, row }) => ({ x: load, y: fraction(row) })),
    })),
  };
}

/** A part of the run document the shared RunDocument type does not list (admission, admission_series). */
export function partitionSeries(doc: RunDocument | null): PartitionSeries | null {
  const s = doc?.admission_series;
  return s?.kind === "partition" ? s : null;
}

/** K(t) of DynamicPart as a step function, StaticPart's constant K dashed for contrast. */
export function kChart(dynamic: PartitionSeries, fixed: PartitionSeries | null, servers: number | null): { config: SimChartConfig; series: SimSeries[] } {
  const end = dynamic.t_s[dynamic.t_s.length - 1] ?? 0;
  const steps = (s: PartitionSeries) => s.t_s.map((x, i) => ({ x, y: s.k[i] ?? null }));
  const series: SimSeries[] = [{ key: "dynamic", label: "DynamicPart K(t)", color: POLICY_COLORS.dynamic_part, kind: "step", points: steps(dynamic) }];
  if (fixed !== null) series.push({ key: "static", label: "StaticPart K", color: POLICY_COLORS.static_part, kind: "step", dashed: true, points: steps(fixed) });
  const top = servers ?? Math.max(...dynamic.k, ...(fixed?.k ?? []));
  return {
    config: {
      id: "chart-k-steps",
      title: "High Set size K(t)",
      description: "Servers reserved for top-user requests: DynamicPart moves one server per control period when the High Set's connections (static and dynamic) leave the SLA band; StaticPart keeps its formula's K.",
      x: { label: "simulated time (h:min:s)", format: (s) => formatSimClock(s, end < 3600), ticks: timeTicksS(end), domain: [0, end] },
      y: { label: "K (servers)", format: (v) => formatDecimal(v, 0), domain: [0, top], ticks: Array.from({ length: top + 1 }, (_, i) => i) },
    },
    series,
  };
}

/** One sentence per policy at the highest load: does it hold the top classes' SLA, and what it costs normal users. */
export function verdicts(doc: PolicySweep, classes: WorkloadClassInfo[], slaS: number | null): { policy: PartitionPolicy; text: string; holds: boolean | null }[] {
  const top = classes.filter((c) => c.user === "top");
  return POLICIES.flatMap((policy) => {
    const rows = rowsOf(doc, policy);
    const last = rows[rows.length - 1];
    if (last === undefined) return [];
    const worst = Math.max(...top.map((c) => last.row.classes?.[c.name]?.latency_p95_s ?? Infinity));
    const holds = slaS === null || !Number.isFinite(worst) ? null : worst <= slaS;
    const normal = rejectedNormalChart(doc, classes).series.find((s) => s.key === policy)?.points.at(-1)?.y ?? null;
    const verdict = holds === null ? "" : holds ? "holds the top classes' SLA" : "violates the top classes' SLA";
    return [{ policy, holds, text: `${POLICY_LABELS[policy]} at ${formatLoad(last.load)}: top p95 ${formatLatency(worst)}${verdict === "" ? "" : `, ${verdict}`}; ${formatPercent(normal ?? 0, 1)} of normal requests rejected.` }];
  });
}

/** The form's load range and limits from a preset's own comparison (a dataset's: its scaled hourly
 * loads and derived limits), or null when it has none. The form spaces loads evenly, so the range
 * keeps the preset's lowest and highest load and its number of steps. */
export function presetComparison(sweep: SweepIn | null): { range: { from: string; to: string; steps: string }; limits: { maxconn_sla: string; maxconn: string; maxconn_static_sla: string; period_s: string } } | null {
  const loads = sweep?.second?.path === LOAD_PATH ? sweep.second.values.filter((v): v is number => typeof v === "number") : [];
  const block = (sweep?.values ?? []).find((v) => getPath(v as Json, ["policy"]) === "dynamic_part") as Json | undefined;
  if (loads.length < 2 || block === undefined) return null;
  const text = (k: string) => {
    const v = getPath(block, [k]);
    return typeof v === "number" ? String(v) : "";
  };
  return {
    range: { from: String(Math.min(...loads)), to: String(Math.max(...loads)), steps: String(Math.min(loads.length, 12)) },
    limits: { maxconn_sla: text("maxconn_sla"), maxconn: text("maxconn"), maxconn_static_sla: text("maxconn_static_sla"), period_s: text("period_s") || "10" },
  };
}
