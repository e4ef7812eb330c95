import { render, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import type { CharacterizationResult } from "./result";
import { WorkloadTab } from "./WorkloadTab";

const FIT = { dist: "lognorm", params: { mu: 0, sigma: 1 }, aic: 1, ks: 0.01, n: 100, zero_fraction: 0, ci95: {} };

/** A characterization of a latency trace: no status, sizes, clients or paths. */
function traceResult(): CharacterizationResult {
  return {
    requests: 1000,
    arrivals: { peak_per_min: 600, trough_per_min: 100, mean_per_min: 400, peak_to_mean: 1.5 },
    classes: { request: { dynamic: 1 }, user: { normal: 1 } },
    pages: { count: null, with_base: null, objects_per_page_mean: null, bytes_per_page_mean: null, load_time_s_mean: null },
    sessions: { count: null, pages_per_session_mean: null, requests_per_session_mean: null },
    latency: { count: 1000, p50_s: 0.01, p90_s: 0.02, p95_s: 0.03, p99_s: 0.05, max_s: 0.1 },
    latency_by_class: {},
    fits: { requests_per_session: FIT, object_gap_s: FIT },
    histograms: {},
    model: {},
    display: { arrivals: {}, daily_profile: null, latency: null, paths: [], pages_per_session: null },
    fields_recorded: {
      status: false,
      bytes: false,
      latency: true,
      client: false,
      user_agent: false,
      referrer: false,
      path: false,
      span_s: 134,
      sessions: false,
      daily_profile: false,
    },
  };
}

describe("WorkloadTab of a trace", () => {
  it("shows sessions and pages as not recorded, never 1 session or 0 pages", () => {
    render(<WorkloadTab result={traceResult()} />);
    const sessions = screen.getByTestId("workload-sessions");
    expect(sessions).toHaveTextContent("not recorded");
    expect(sessions).toHaveTextContent("this log has no clients");
    expect(sessions).not.toHaveTextContent("1");
    expect(screen.getByTestId("workload-pages")).toHaveTextContent("this log has no paths");
    expect(screen.getByTestId("workload-bytes-per-page")).toHaveTextContent("not recorded");
  });

  it("leaves out the pages-per-session chart and the fits the log cannot give", () => {
    render(<WorkloadTab result={traceResult()} />);
    expect(screen.getByTestId("chart-pages-per-session-not-recorded")).toBeInTheDocument();
    expect(screen.getByTestId("fits-not-recorded")).toHaveTextContent("requests per session, gap between object requests");
    expect(screen.queryByTestId("fit-requests_per_session")).toBeNull();
  });
});
