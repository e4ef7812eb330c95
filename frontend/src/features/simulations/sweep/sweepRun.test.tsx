import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { jsonResponse, renderWithApp } from "../../../test/render";
import type { Simulation, SweepRun } from "../api";
import type { RunDocument, RunSummary, SweepDocument } from "../results";
import { SweepRunView } from "./SweepRunView";
import { SweepView } from "./SweepView";
import { unreadRates, unreadTicks } from "../resultFixtures";

// Recharts in jsdom on a loaded 2-core machine: seconds per case, not a speed check.
vi.setConfig({ testTimeout: 30_000 });

const summary: RunSummary = {
  requests: 100,
  pages: 0,
  plt_s: null,
  latency_s: { mean: 0.2, median: 0.1, p95: 0.5, p99: 0.9 },
  vms: { mean_allocated: 2, mean_active: 2, max_allocated: 3, vm_hours: 0.2, scaling_actions: 2, cost: 0.2 },
  rejected_fraction: 0,
  sla_violation_fraction: 0.25,
  events: 300,
  wall_s: 0.1,
  seed: 4,
};

const runDoc: RunDocument = {
  kind: "run",
  summary,
  series: { ...unreadTicks, window_s: 60, window_t_s: [60, 120], window_percentile: 95, window_p50_latency_s: [0.1, 0.2], window_p95_latency_s: [0.4, 2], window_p99_latency_s: [0.9, 3], window_violated: [false, true] },
  rates: { ...unreadRates, bucket_s: 1, t_s: [60, 120], arrivals_per_s: [1, 2], completions_per_s: [1, 2], rejected_per_s: [0, 0], utilization: [0.4, 0.6], utilization_max: [0.5, 0.7] },
  vm_steps: { t_s: [0, 60, 120], allocated_vms: [1, 3, 3], active_vms: [1, 1, 3] },
  actions: [{ t_s: 60, from_vms: 1, to_vms: 3 }],
  utilization_boxes: [{ allocated_vms: 1, samples: 10, min: 0.1, q1: 0.3, median: 0.4, q3: 0.5, max: 0.7 }],
  latency_cdf: { x_s: [0.1, 0.5, 1], fraction: [0.5, 0.95, 1] },
  plt_cdf: null,
};

const row = (index: number, upper: number, cost: number, violations: number) => ({
  index,
  values: { "autoscaling.upper": upper },
  cost,
  vm_hours: cost,
  sla_violation_fraction: violations,
  rejected_fraction: 0,
  latency_p95_s: 0.5,
  plt_p95_s: null,
  summary: { ...summary, sla_violation_fraction: violations },
});

const sweepDoc: SweepDocument = { kind: "sweep", axes: [{ path: "autoscaling.upper", values: [0.5, 0.9] }], runs: [row(0, 0.5, 0.3, 0), row(1, 0.9, 0.2, 0.25)] };

const sweep = {
  id: 7,
  workspace_id: 1,
  name: "upper",
  kind: "sweep",
  scenario: { name: "s", duration_s: 120, seed: 4 },
  seed: 4,
  sweep: { path: "autoscaling.upper", values: [0.5, 0.9], second: null },
  created_at: "2026-11-23T10:00:00Z",
  created_by: null,
  job: null,
  summary: null,
  result: sweepDoc,
} as unknown as Simulation;

const stored: SweepRun = {
  simulation_id: 7,
  workspace_id: 1,
  name: "upper",
  index: 1,
  values: { "autoscaling.upper": 0.9 },
  scenario: { name: "s", duration_s: 120, seed: 4, autoscaling: { policy: "threshold", upper: 0.9 }, sla: { threshold_s: 1 } },
  seed: 4,
  result: runDoc,
};

/** Answers GETs from `routes` (path -> response); records every call. */
function serve(routes: Record<string, () => Response>) {
  const calls: string[] = [];
  vi.stubGlobal(
    "fetch",
    vi.fn(async (request: Request) => {
      const url = new URL(request.url);
      calls.push(`${request.method} ${url.pathname}`);
      const answer = request.method === "GET" ? routes[url.pathname] : undefined;
      return answer !== undefined ? answer() : jsonResponse(404, { error: { code: "not_found", message: "no route" } });
    }),
  );
  return calls;
}

afterEach(() => vi.unstubAllGlobals());

describe("a sweep's runs", () => {
  it("opens a run of the frontier at its stored result's page, starting no simulation", async () => {
    const calls = serve({});
    renderWithApp(<SweepView simulation={sweep} doc={sweepDoc} />, { path: "/simulations/7", route: "/simulations/7" });
    const table = screen.getByTestId("sweep-runs");
    fireEvent.click(within(table).getAllByRole("button", { name: "Details" })[1] as HTMLElement);
    const open = screen.getByTestId("open-sweep-run");
    expect(open).toHaveAttribute("href", "/simulations/7/runs/1");
    fireEvent.click(open);
    expect(await screen.findByTestId("location")).toHaveTextContent("/simulations/7/runs/1");
    expect(calls.filter((c) => c.startsWith("POST"))).toEqual([]);
  });

  it("shows the stored run's charts, values and seed", async () => {
    const calls = serve({ "/api/v1/simulations/7/runs/1": () => jsonResponse(200, stored) });
    renderWithApp(<SweepRunView simulationId={7} index={1} />);
    expect(await screen.findByTestId("simulation-title")).toHaveTextContent("upper · run 2");
    expect(screen.getByTestId("sweep-run-values")).toHaveTextContent("autoscaling.upper = 0.9 · seed 4");
    expect(screen.getByTestId("chart-window-latency")).toBeInTheDocument();
    expect(screen.getByTestId("stat-sla")).toHaveTextContent("25");
    expect(calls).toEqual(["GET /api/v1/simulations/7/runs/1"]);
  });

  it("offers to simulate again a run an older sweep did not keep", async () => {
    const calls = serve({
      "/api/v1/simulations/7/runs/1": () => jsonResponse(404, { error: { code: "run_not_stored", message: "run 1 of simulation 7 was not kept" } }),
      "/api/v1/simulations/7": () => jsonResponse(200, sweep),
    });
    renderWithApp(<SweepRunView simulationId={7} index={1} />);
    const banner = await screen.findByTestId("sweep-run-not-stored");
    expect(banner).toHaveTextContent("was not kept");
    const again = within(banner).getByRole("button", { name: "Simulate it again" });
    await waitFor(() => expect(again).toBeEnabled());
    expect(calls.filter((c) => c.startsWith("POST"))).toEqual([]);
  });
});
