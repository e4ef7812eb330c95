/** Pure transforms from a background comparison to chart rows, table rows and advice. */
import type { CurveRow } from "../../charts/curveConfig";
import type { ColorToken } from "../../charts/tokens";
import { formatDuration, formatPercent } from "../../lib/format";
import type { BackgroundComparison, BackgroundOutcome } from "./api";

export const POLICIES = ["none", "suspend", "static", "adaptive"] as const;
export type Policy = (typeof POLICIES)[number];

export const POLICY_LABELS: Record<Policy, string> = {
  none: "Do nothing (fair share)",
  suspend: "Suspend when busy",
  static: "Static cap",
  adaptive: "Adaptive reservation",
};

export const POLICY_COLORS: Record<Policy, ColorToken> = {
  none: "status-5xx",
  suspend: "status-4xx",
  static: "chart-model",
  adaptive: "status-2xx",
};

function outcomeOf(result: BackgroundComparison, policy: Policy): BackgroundOutcome {
  const outcome = result.policies[policy];
  if (outcome === undefined) throw new Error(`the result has no ${policy} policy`);
  return outcome;
}

/** One row per policy: x = foreground work delayed, the policy's own key = background CPU. */
export function tradeoffRows(result: BackgroundComparison): CurveRow[] {
  return POLICIES.map((p) => {
    const o = outcomeOf(result, p);
    const row: CurveRow = { x: o.foreground_delayed_fraction };
    for (const q of POLICIES) row[q] = q === p ? o.background_cpu_fraction : null;
    return row;
  }).sort((a, b) => a.x - b.x);
}

/** Rows over time (x in hours from the start): demand and the static and adaptive quotas. */
export function quotaRows(result: BackgroundComparison): CurveRow[] {
  const s = result.series;
  const t = s.t_s ?? [];
  const t0 = t[0] ?? 0;
  return t.map((ts, i) => {
    const row: CurveRow = { x: (ts - t0) / 3600, demand: s.demand?.[i] ?? null };
    for (const p of ["static", "adaptive"] as const) row[p] = s[`quota_${p}`]?.[i] ?? null;
    return row;
  });
}

/** The sentence an SRE reads first: what the adaptive controller buys over the static cap. */
export function recommendation(result: BackgroundComparison): string {
  const adaptive = outcomeOf(result, "adaptive");
  const cap = outcomeOf(result, "static");
  const gain = cap.background_cpu_fraction > 0 ? adaptive.background_cpu_fraction / cap.background_cpu_fraction : null;
  const times = gain === null ? "" : ` (${gain.toFixed(1)}× the static cap's ${formatPercent(cap.background_cpu_fraction)})`;
  return (
    `Adaptive reservation gives background work ${formatPercent(adaptive.background_cpu_fraction)} of the machine${times}, ` +
    `delaying ${formatPercent(adaptive.foreground_delayed_fraction, 2)} of the foreground work ` +
    `(95th percentile of the extra delay: ${formatDuration(adaptive.foreground_delay_p95_s)}).`
  );
}
