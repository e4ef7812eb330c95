/** Rules, thresholds and delivery states in words, as the Alerts tab and channels card say them. */
import { formatDateTime } from "../../lib/format";
import type { Delivery, Rule, RuleKind } from "./api";

export const KIND_LABELS: Record<RuleKind, string> = {
  p95_above_sla: "p95 latency above the SLA",
  knee_below_baseline: "Knee lower than the baseline",
  error_rate_above: "Error rate (5xx) above",
};

/** What the threshold field asks for, per kind; `blank` is what an empty field means. */
export const THRESHOLD_HELP: Record<RuleKind, { label: string; blank: string | null }> = {
  p95_above_sla: { label: "SLA in seconds (empty: the capacity analysis' SLA target)", blank: "the SLA target" },
  knee_below_baseline: { label: "Baseline in req/s (empty: the previous evaluation)", blank: "the previous evaluation" },
  error_rate_above: { label: "Error rate in % (e.g. 1)", blank: null },
};

export function thresholdText(kind: RuleKind, threshold: number | null): string {
  if (threshold === null) return THRESHOLD_HELP[kind].blank ?? "—";
  if (kind === "p95_above_sla") return threshold < 1 ? `${Math.round(threshold * 1000)} ms` : `${threshold} s`;
  if (kind === "knee_below_baseline") return `${threshold} req/s`;
  return `${+(threshold * 100).toPrecision(3)}%`;
}

export function ruleText(rule: Pick<Rule, "kind" | "threshold">): string {
  return `${KIND_LABELS[rule.kind]} (${thresholdText(rule.kind, rule.threshold)})`;
}

/** The typed field as the API's threshold: % becomes a share; empty is null. */
export function thresholdFromField(kind: RuleKind, text: string): number | null {
  const trimmed = text.trim();
  if (trimmed === "") return null;
  const value = Number(trimmed);
  if (!Number.isFinite(value)) return Number.NaN;
  return kind === "error_rate_above" ? value / 100 : value;
}

export function deliveryText(d: Delivery): string {
  const who = d.channel_name ?? "a removed channel";
  if (d.status === "queued") return d.attempts > 0 ? `${who}: retrying (${d.attempts} tries so far)` : `${who}: sending…`;
  if (d.status === "sent") return `${who}: sent ${formatDateTime(d.finished_at)}`;
  const tries = d.attempts === 1 ? "1 try" : `${d.attempts} tries`;
  return `${who}: failed after ${tries}: ${d.last_error ?? "unknown error"}`;
}
