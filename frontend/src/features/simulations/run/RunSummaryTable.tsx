/** The numbers of one or several runs, one column per run. */
import type { ReactNode } from "react";
import { formatCount, formatDecimal, formatLatency, formatPercent } from "../../../lib/format";
import type { RunSummary } from "../results";
import tableStyles from "../../../components/Table.module.css";

interface Line {
  label: string;
  unit: string;
  value: (s: RunSummary) => ReactNode;
}

const LINES: Line[] = [
  { label: "Cost", unit: "price units: VM-hours × price per VM-hour", value: (s) => formatDecimal(s.vms.cost, 2) },
  { label: "VM hours", unit: "VM·h", value: (s) => formatDecimal(s.vms.vm_hours, 2) },
  { label: "Mean allocated / active", unit: "VMs", value: (s) => `${formatDecimal(s.vms.mean_allocated, 1)} / ${formatDecimal(s.vms.mean_active, 1)}` },
  { label: "Max allocated", unit: "VMs", value: (s) => formatCount(s.vms.max_allocated) },
  { label: "Scaling actions", unit: "", value: (s) => formatCount(s.vms.scaling_actions) },
  { label: "SLA violations", unit: "share of windows", value: (s) => (s.sla_violation_fraction === null ? "no SLA" : formatPercent(s.sla_violation_fraction, 2)) },
  { label: "Rejected", unit: "share of requests", value: (s) => formatPercent(s.rejected_fraction, 2) },
  { label: "PLT median / p95 / p99", unit: "", value: (s) => (s.plt_s === null ? "no pages" : `${formatLatency(s.plt_s.median)} / ${formatLatency(s.plt_s.p95)} / ${formatLatency(s.plt_s.p99)}`) },
  { label: "Latency median / p95 / p99", unit: "", value: (s) => `${formatLatency(s.latency_s.median)} / ${formatLatency(s.latency_s.p95)} / ${formatLatency(s.latency_s.p99)}` },
  { label: "Requests / pages", unit: "", value: (s) => `${formatCount(s.requests)} / ${formatCount(s.pages)}` },
  { label: "Events / wall time", unit: "", value: (s) => `${formatCount(s.events)} in ${formatDecimal(s.wall_s, 1)} s` },
];

export function RunSummaryTable({ runs, testId }: { runs: { label: ReactNode; summary: RunSummary }[]; testId?: string }) {
  return (
    <div className={tableStyles.scroll}>
      <table className={tableStyles.table} data-testid={testId}>
        <caption className="visually-hidden">Run summary</caption>
        <thead>
          <tr>
            <th scope="col">Measure</th>
            {runs.map((r, i) => (
              <th key={i} scope="col" className={tableStyles.numeric} style={{ minWidth: "8em", maxWidth: "14em", overflowWrap: "anywhere" }}>
                {r.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {LINES.map((line) => (
            <tr key={line.label}>
              <th scope="row" style={{ fontWeight: 500, textAlign: "left", minWidth: "9em", maxWidth: "16em" }}>
                {line.label}
                {line.unit !== "" && <span style={{ display: "block", color: "var(--color-text-muted)", fontWeight: 400, textTransform: "none", letterSpacing: 0 }}>{line.unit}</span>}
              </th>
              {runs.map((r, i) => (
                <td key={i} className={tableStyles.numeric}>
                  {line.value(r.summary)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
