/** A capacity report in the shape the API returns (headroom analyze --json), small enough to work by hand. */
import { QueryClientProvider } from "@tanstack/react-query";
import type { ReactElement } from "react";
import { MemoryRouter } from "react-router";
import { vi } from "vitest";
import type { Analysis, CapacityParamsIn, CapacityReport, ClassReport, Recommendation } from "../api/models";
import type { SctReport, SctServer } from "../features/capacity/sctReport";
import { user } from "./fixtures";
import { jsonResponse, testQueryClient } from "./render";

/**
 * Latency 0.1 s at 10 req/s, 0.2 s at 20, 0.5 s at 30 (measured), then 1 s at 35 and 2 s at 40
 * (model). Concurrency 1, 4, 15, 35, 80.
 */
export function kneeClass(overrides: Partial<ClassReport> = {}): ClassReport {
  return {
    knee: { load_per_s: 20, latency_s: 0.2, source: "measured" },
    breaking_point_per_s: 35,
    breaking_point_source: "model",
    sla: { percentile: 95, threshold_s: 0.2, max_rate_per_s: 20, max_conn: 4, stance: "balanced", source: "measured", capped: false },
    max_conn: 35,
    model: null,
    peak_load_per_s: 45,
    servers_needed: 3,
    curve: [
      { load_per_s: 10, latency_s: 0.1, latency_low_s: 0.08, latency_high_s: 0.12, latency_fit_s: 0.1, throughput_per_s: 10, concurrency: 1, windows: 6, source: "measured" },
      { load_per_s: 20, latency_s: 0.2, latency_low_s: 0.17, latency_high_s: 0.25, latency_fit_s: 0.2, throughput_per_s: 20, concurrency: 4, windows: 5, source: "measured" },
      { load_per_s: 30, latency_s: 0.5, latency_low_s: 0.4, latency_high_s: 0.6, latency_fit_s: 0.5, throughput_per_s: 30, concurrency: 15, windows: 5, source: "measured" },
      { load_per_s: 35, latency_s: 1, throughput_per_s: 34, concurrency: 35, fit_error_rel: 0.08, source: "model" },
      { load_per_s: 40, latency_s: 2, throughput_per_s: 35, concurrency: 80, fit_error_rel: 0.08, source: "model" },
    ],
    warnings: ["the log stops before the knee: knee extrapolated with an M/M/c model"],
    ...overrides,
  };
}

export function capacityReport(overrides: Partial<CapacityReport> = {}): CapacityReport {
  return {
    classes: { all: kneeClass() },
    capacity: { power_peak_load_per_s: 20.13, r2: 0.76 },
    capacity_reason: null,
    per_server: false,
    servers: [],
    warnings: ["the log names no servers: the whole site is analysed as one server"],
    ...overrides,
  };
}

export function capacityParams(overrides: Partial<CapacityParamsIn> = {}): CapacityParamsIn {
  return { kind: "capacity", percentile: 95, stance: "balanced", threshold_s: null, window_s: 10, bins: 20, model_servers: null, per_server: true, ...overrides };
}

export function analysis(overrides: Partial<Analysis> = {}): Analysis {
  return {
    id: 7,
    workspace_id: 1,
    dataset_id: 2,
    kind: "capacity",
    params: capacityParams(),
    created_at: "2026-11-22T03:19:32Z",
    created_by: { id: user.id, email: user.email, name: user.name },
    job: null,
    result: null,
    ...overrides,
  };
}

/** One server of an SCT report: TP rises 50/s per request to 10, stays at 500/s to 20, then falls. */
export function sctServer(overrides: Partial<SctServer> = {}): SctServer {
  const levels = Array.from({ length: 30 }, (_, i) => {
    const n = i + 1;
    const tp = n <= 10 ? 50 * n : n <= 20 ? 500 : 500 - 20 * (n - 20);
    return { n, throughput_per_s: tp, response_s: n / tp, intervals: 40 };
  });
  return {
    q_lower: 10,
    q_upper: 20,
    q_max_observed: 30,
    tp_max_per_s: 500,
    usl: { sigma: 0.02, kappa: 0.002, n_star: 22, lambda_per_s: 55, rmse_per_s: 12 },
    trend: [
      { n: 1, throughput_per_s: 50 },
      { n: 10, throughput_per_s: 500 },
      { n: 20, throughput_per_s: 500 },
      { n: 30, throughput_per_s: 300 },
    ],
    warnings: [],
    levels,
    ...overrides,
  };
}

export function sctReport(servers: Record<string, SctServer> = { "app-1": sctServer() }): SctReport {
  return { servers, interval_ms: 50, window_s: 180 };
}

/** A served recommendation (POST /analyses/{id}/recommendations). */
export function recommendation(overrides: Partial<Recommendation> = {}): Recommendation {
  return { id: "all-rate", class_name: "all", text: "Keep the site under 20 req/s to hold p95 under 200 ms.", confidence: "measured", chart: "knee-chart", link: null, ...overrides };
}

/** Stubs fetch to answer every recommendations request with `items`; returns the bodies posted. */
export function stubRecommendations(items: Recommendation[]): unknown[] {
  const posted: unknown[] = [];
  vi.stubGlobal(
    "fetch",
    vi.fn(async (request: Request) => {
      const body = (await request.json()) as { thresholds_s: Record<string, number> };
      posted.push(body);
      return jsonResponse(200, { analysis_id: 7, thresholds_s: body.thresholds_s, items });
    }),
  );
  return posted;
}

/** `ui` inside a fresh query client and a router, as the dataset page renders it. */
export function withClient(ui: ReactElement): ReactElement {
  return (
    <QueryClientProvider client={testQueryClient()}>
      <MemoryRouter>{ui}</MemoryRouter>
    </QueryClientProvider>
  );
}
