import { fireEvent, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { recommendation, sctReport, sctServer, stubRecommendations, withClient } from "../../test/capacityFixtures";
import { responseRows, throughputConfig, throughputRows } from "./concurrencyCharts";
import { ConcurrencyView } from "./ConcurrencyView";
import { poolSentence, trendAt, uslThroughput } from "./sctReport";

// Each case renders two Recharts charts in jsdom: seconds on a loaded 2-core machine, not a speed check.
vi.setConfig({ testTimeout: 30_000 });

afterEach(() => vi.unstubAllGlobals());

const SERVED_MS = 10_000; // the served list arrives after a debounce and a fetch, slower on a loaded machine
const SCENARIO = { name: "concurrency-aware scaling in front of app-1 (pool 10)" };

describe("ConcurrencyView", () => {
  it("shows the server's served scaling recommendation with a link to its scenario", async () => {
    stubRecommendations([
      recommendation({ id: "sct-app-1", class_name: "app-1", text: "SCT puts app-1's best pool size at 10 concurrent requests.", chart: "throughput-chart", link: { to: "/simulations/new", label: "Simulate concurrency-aware scaling", scenario: SCENARIO } }),
      recommendation({ id: "sct-app-2", class_name: "app-2", text: "SCT puts app-2's best pool size at 20 concurrent requests." }),
    ]);
    render(withClient(<ConcurrencyView analysisId={9} report={sctReport({ "app-1": sctServer(), "app-2": sctServer() })} chartWidth={600} />));
    expect(await screen.findByTestId("sct-scaling-recommendation", {}, { timeout: SERVED_MS })).toHaveTextContent("SCT puts app-1's best pool size at 10");
    expect(screen.getByTestId("sct-scaling-link")).toHaveAttribute("href", "/simulations/new");
    fireEvent.click(screen.getByRole("button", { name: "app-2" }));
    expect(screen.getByTestId("sct-scaling-recommendation")).toHaveTextContent("app-2's best pool size at 20");
  });


  it("says which part of the trace the model ran over", () => {
    stubRecommendations([]);
    const { unmount } = render(withClient(<ConcurrencyView analysisId={9} report={sctReport()} chartWidth={600} />));
    expect(screen.getByText(/model over the whole trace\./)).toBeInTheDocument();
    unmount();
    render(withClient(<ConcurrencyView analysisId={9} report={sctReport()} windowS={600} chartWidth={600} />));
    expect(screen.getByText(/model over the trace's most recent 10 min\./)).toBeInTheDocument();
  });

  it("states the pool size in one sentence and shows both scatters", () => {
    stubRecommendations([]);
    render(withClient(<ConcurrencyView analysisId={9} report={sctReport()} chartWidth={600} />));
    expect(screen.getByTestId("sct-recommendation")).toHaveTextContent(
      "Set the thread or connection pool of app-1 to 10: the lowest concurrency at the highest throughput, so the lowest latency; sizes up to 20 keep it, larger ones lose it.",
    );
    expect(screen.getByTestId("sct-q-lower")).toHaveTextContent("10");
    expect(screen.getByTestId("sct-throughput-chart")).toHaveTextContent("rational range");
    expect(screen.getByTestId("sct-response-chart")).toBeInTheDocument();
    expect(screen.queryByTestId("sct-warnings")).not.toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Export pool sizes" })).toBeInTheDocument();
  });

  it("switches servers and shows a server's disagreement warning", () => {
    const flat = sctServer({ q_upper: null, q_max_observed: 36, warnings: ["the USL peak and the SCT range disagree by more than 30%"] });
    stubRecommendations([]);
    render(withClient(<ConcurrencyView analysisId={9} report={sctReport({ "app-1": sctServer(), "app-2": flat })} chartWidth={600} />));
    fireEvent.click(screen.getByRole("button", { name: "app-2" }));
    expect(screen.getByTestId("sct-warnings")).toHaveTextContent("The USL peak and the SCT range disagree by more than 30%.");
    expect(screen.getByTestId("sct-recommendation")).toHaveTextContent("sizes up to at least 36 keep it (no decline was seen)");
    expect(screen.getByTestId("sct-throughput-chart")).toHaveTextContent("rational range (no decline seen)");
  });

  it("says what to do when no level has enough intervals", () => {
    render(withClient(<ConcurrencyView analysisId={9} report={sctReport({ "app-1": sctServer({ levels: [], q_lower: null, q_upper: null }) })} />));
    expect(screen.getByText(/Record a longer trace/)).toBeInTheDocument();
  });
});

describe("SCT chart data", () => {
  it("draws the trend through the fit's knots and the USL from its parameters", () => {
    const s = sctServer();
    expect(trendAt(s.trend, 5)).toBe(250); // 50 + (5 - 1) / (10 - 1) x 450, between (1, 50) and (10, 500)
    expect(trendAt(s.trend, 25)).toBe(400);
    expect(trendAt(s.trend, 40)).toBe(300);
    // X(N) = lambda N / (1 + sigma (N - 1) + kappa N (N - 1))
    expect(uslThroughput({ sigma: 0.1, kappa: 0.01, n_star: null, lambda_per_s: 10 }, 5)).toBeCloseTo(50 / (1 + 0.4 + 0.2), 12);
    expect(uslThroughput({ sigma: 0.1, kappa: 0.01, n_star: null }, 5)).toBeNull();
    const rows = throughputRows(s);
    expect(rows).toHaveLength(30);
    expect(rows[9]).toMatchObject({ x: 10, tp: 500, trend: 500 });
    expect(responseRows(s)[0]).toEqual({ x: 1, rt: 0.02 });
  });

  it("shades [Q_lower, Q_upper] and calls Q_lower out", () => {
    const config = throughputConfig("app-1", sctServer());
    expect(config.ranges).toEqual([{ id: "rational", label: "rational range", color: "chart-band", x1: 10, x2: 20 }]);
    expect(config.marks.map((m) => m.label)).toEqual(["Q_lower 10: pool size", "Q_upper 20", "USL N* 22"]);
  });

  it("has a sentence for a server without enough levels", () => {
    expect(poolSentence("db-1", sctServer({ q_lower: null }))).toMatch(/too few concurrency levels/);
  });
});
