import { render, screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import type { RunDocument } from "../results";
import { poolRange, tierPoolChart, tierRows, tiersOfRun, tierUtilizationChart, tierVmChart } from "./tierDoc";
import type { TierFigures, TiersDocument } from "../results";
import { TierResults } from "./TierResults";
import { unreadRates, unreadTicks } from "../resultFixtures";

const steps = (t_s: number[], value: (number | null)[]) => ({ t_s, value });

/** web (2 fixed VMs, unbounded) -> app (scaled 2 -> 3, pool 10) -> db (1 VM, pool resized 15 -> 12 at 130 s). */
const TIERS: TiersDocument = {
  scaled: "app",
  bucket_s: 60,
  t_s: [60, 120, 180],
  tiers: [
    { name: "web", allocated: steps([0, 180], [2, 2]), active: steps([0, 180], [2, 2]), pool: steps([0, 180], [null, null]), utilization: [0.1, 0.2, 0.1], concurrency: [1, 2, 1], waiting: [0, 0, 0] },
    { name: "app", allocated: steps([0, 100, 180], [2, 3, 3]), active: steps([0, 130, 180], [2, 3, 3]), pool: steps([0, 180], [10, 10]), utilization: [0.5, 0.9, 0.6], concurrency: [4, 9, 5], waiting: [0, 3, 0] },
    { name: "db", allocated: steps([0, 180], [1, 1]), active: steps([0, 180], [1, 1]), pool: steps([0, 130, 180], [15, 12, 12]), utilization: [0.6, 1, 0.8], concurrency: [8, 15, 10], waiting: [0, 0, 0] },
  ],
  pool_changes: [{ t_s: 130, tier: "db", vm: 0, from_pool: 15, to_pool: 12, rule: "q_lower", q_lower: 12, q_upper: 20 }],
  pool_changes_total: 1,
};

const figures = (own_s: number, initial: number | null, final: (number | null)[], changes: number): TierFigures => ({
  vms: { mean_allocated: 2.5, mean_active: 2.4, max_allocated: 3, vm_hours: 0.125, cost: 0.125 },
  utilization_mean: 0.62,
  concurrency_mean: 5.04,
  concurrency_peak: 27,
  residence_s: own_s * 2,
  own_s,
  latency_share: own_s / 0.1,
  pool: { initial, final },
  pool_changes: changes,
});

function runDoc(tiers: TiersDocument | null): RunDocument {
  return {
    kind: "run",
    summary: { pages: 0, tiers: { web: figures(0.001, null, [null, null], 0), app: figures(0.02, 10, [10, 10, 10], 0), db: figures(0.05, 15, [12], 1) } } as unknown as RunDocument["summary"],
    series: { ...unreadTicks, window_s: 60, window_t_s: [60], window_p95_latency_s: [0.4], window_violated: [false] },
    rates: { ...unreadRates, bucket_s: 60, t_s: [180], arrivals_per_s: [1], completions_per_s: [1], rejected_per_s: [0], utilization: [0.5], utilization_max: [0.6] },
    vm_steps: { t_s: [0, 180], allocated_vms: [2, 3], active_vms: [2, 3] },
    actions: [],
    utilization_boxes: [],
    latency_cdf: null,
    plt_cdf: null,
    tiers,
  };
}

describe("a multi-tier run's per tier results", () => {
  it("is absent for single-pool runs and runs stored before tiers were kept", () => {
    expect(tiersOfRun({ ...runDoc(null) })).toBeNull();
    const old: RunDocument = runDoc(null);
    delete old.tiers;
    expect(tiersOfRun(old)).toBeNull();
  });

  it("draws each tier's allocated VMs as steps, the scaled tier's active VMs dashed", () => {
    const { config, series } = tierVmChart(runDoc(TIERS), TIERS);
    expect(config.x.domain).toEqual([0, 180]);
    expect(series.map((s) => [s.key, s.kind, s.dashed ?? false])).toEqual([
      ["t0-allocated", "step", false],
      ["t1-allocated", "step", false],
      ["t1-active", "step", true],
      ["t2-allocated", "step", false],
    ]);
    expect(series[1]?.label).toBe("app: allocated VMs (scaled)");
    expect(series[1]?.points).toEqual([{ x: 0, y: 2 }, { x: 100, y: 3 }, { x: 180, y: 3 }]);
  });

  it("draws bounded pools as steps with the slots in use and marks each pool change at its new size", () => {
    const { config, series } = tierPoolChart(runDoc(TIERS), TIERS);
    expect(series.map((s) => s.key)).toEqual(["t1-pool", "t1-conc", "t2-pool", "t2-conc", "t2-changes"]);
    expect(series.find((s) => s.key === "t2-pool")?.points).toEqual([{ x: 0, y: 15 }, { x: 130, y: 12 }, { x: 180, y: 12 }]);
    expect(series.find((s) => s.key === "t2-changes")?.points).toEqual([{ x: 130, y: 12 }]);
    expect(series.find((s) => s.key === "t1-conc")?.points).toEqual([{ x: 60, y: 4 }, { x: 120, y: 9 }, { x: 180, y: 5 }]);
    expect(config.description).toMatch(/Unbounded: web\.$/);
    const capped = tierPoolChart(runDoc(TIERS), { ...TIERS, pool_changes_total: 5000 });
    expect(capped.config.description).toMatch(/the first 1 of 5000 changes marked/);
  });

  it("draws utilisation per tier in request order", () => {
    const { series } = tierUtilizationChart(runDoc(TIERS), TIERS);
    expect(series.map((s) => s.label)).toEqual(["web", "app", "db"]);
    expect(series[2]?.points.at(1)).toEqual({ x: 120, y: 1 });
  });

  it("tabulates the per tier figures in request order", () => {
    const rows = tierRows(["web", "app", "db"], runDoc(TIERS).summary.tiers ?? {});
    const row = (label: string) => rows.find((r) => r.label === label)?.values;
    expect(row("Time at the tier (own)")).toEqual(["1 ms", "20 ms", "50 ms"]);
    expect(row("Share of the latency")).toEqual(["1%", "20%", "50%"]);
    expect(row("Pool size start → end")).toEqual(["unbounded → unbounded", "10 → 10", "15 → 12"]);
    expect(row("Pool changes")).toEqual(["0", "0", "1"]);
    expect(poolRange([8, 12, 10])).toBe("8–12");
    expect(poolRange([])).toBe("—");
  });

  it("renders the table and the three charts", () => {
    render(<TierResults doc={runDoc(TIERS)} />);
    const table = screen.getByTestId("tier-table");
    expect(within(table).getAllByRole("columnheader").map((h) => h.textContent)).toEqual(["Per tier", "web", "app", "db"]);
    expect(screen.getByText("VMs per tier")).toBeInTheDocument();
    expect(screen.getByText("Pool size per VM")).toBeInTheDocument();
    expect(screen.getByText("Utilisation per tier")).toBeInTheDocument();
  });
});
