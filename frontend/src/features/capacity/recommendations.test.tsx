import { render, screen } from "@testing-library/react";
import { createMemoryRouter, RouterProvider } from "react-router";
import { describe, expect, it } from "vitest";
import { capacityReport, kneeClass, sctReport, sctServer } from "../../test/capacityFixtures";
import { ConcurrencyView } from "./ConcurrencyView";
import { backgroundRecommendation, classPolicyRecommendation, concurrencyScenario, meanLoadPerS, recommendations, sctRecommendation } from "./recommendations";

/** Static requests: 4x faster than kneeClass's dynamic ones up to 30 req/s, 200 ms at 35 (model), 400 ms at 40. */
const staticClass = kneeClass({
  curve: [
    { load_per_s: 10, latency_s: 0.02, throughput_per_s: 10, concurrency: 0.2, windows: 6, source: "measured" },
    { load_per_s: 20, latency_s: 0.04, throughput_per_s: 20, concurrency: 0.8, windows: 5, source: "measured" },
    { load_per_s: 30, latency_s: 0.1, throughput_per_s: 30, concurrency: 3, windows: 5, source: "measured" },
    { load_per_s: 35, latency_s: 0.2, throughput_per_s: 35, concurrency: 7, source: "model" },
    { load_per_s: 40, latency_s: 0.4, throughput_per_s: 40, concurrency: 16, source: "model" },
  ],
});

describe("the class policies recommendation", () => {
  const report = capacityReport({ classes: { all: kneeClass(), dynamic: kneeClass(), static: staticClass } });

  it("names the tighter class's SLA limit against the looser one's and links the class policies page", () => {
    // dynamic: 200 ms is reached at 20 req/s (measured); static: at 35 req/s (model point)
    const [rec] = classPolicyRecommendation(report, 95, { all: 0.2, dynamic: 0.2, static: 0.2 });
    expect(rec?.text).toBe(
      "dynamic requests hold p95 under 200 ms only up to 20 req/s, static up to 35 req/s: admission by class (SwitchAdm, StaticPart, DynamicPart) keeps dynamic within its SLA when load passes 20 req/s.",
    );
    expect(rec?.link).toEqual({ to: "/policies/classes", label: "Compare class policies" });
    expect(rec?.className).toBe("dynamic");
    expect(recommendations(report, 95, { all: 0.2, dynamic: 0.2, static: 0.2 }).some((r) => r.id === "class-policies")).toBe(true);
  });

  it("says each class's own threshold when they differ", () => {
    const [rec] = classPolicyRecommendation(report, 95, { dynamic: 0.2, static: 0.1 });
    expect(rec?.text).toMatch(/^dynamic requests hold p95 under 200 ms only up to 20 req\/s, static up to 30 req\/s \(under 100 ms\)/);
  });

  it("is absent with one class, or when the classes' limits are close", () => {
    expect(classPolicyRecommendation(capacityReport(), 95, { all: 0.2 })).toEqual([]);
    const alike = capacityReport({ classes: { all: kneeClass(), dynamic: kneeClass(), static: kneeClass() } });
    expect(classPolicyRecommendation(alike, 95, { dynamic: 0.2, static: 0.2 })).toEqual([]);
  });
});

describe("the background work recommendation", () => {
  it("weighs each measured load bin by its windows", () => {
    // (10 x 6 + 20 x 5 + 30 x 5) / 16 windows; the model points carry no windows
    expect(meanLoadPerS(capacityReport())).toBeCloseTo(19.375, 9);
    expect(meanLoadPerS(capacityReport({ classes: {} }))).toBeNull();
  });

  it("says how much of the capacity the mean and the peak leave idle, and links the background page", () => {
    const report = capacityReport({ capacity: { power_peak_load_per_s: 60, r2: 0.9 } });
    const [rec] = backgroundRecommendation(report);
    // 19.375 / 60 = 32% used; the peak of 45 req/s leaves 25%
    expect(rec?.text).toBe(
      "The mean load of 19.4 req/s uses 32% of the 60 req/s capacity (power-ratio peak), and even the peak of 45 req/s leaves 25%: background work can take the idle 68% with a reservation that yields to the foreground.",
    );
    expect(rec?.link).toEqual({ to: "/policies/background", label: "Plan background work" });
    expect(rec?.confidence).toBe("measured");
  });

  it("is absent when the mean load uses most of the capacity, or without a capacity", () => {
    expect(backgroundRecommendation(capacityReport())).toEqual([]); // 19.4 of 20.1 req/s
    expect(backgroundRecommendation(capacityReport({ capacity: null }))).toEqual([]);
  });
});

describe("the concurrency-aware scaling recommendation", () => {
  it("gives the SCT pool size with its range and peak, and a scenario with that server behind a scaled tier", () => {
    const rec = sctRecommendation("app-1", sctServer());
    expect(rec?.text).toBe(
      "SCT puts app-1's best pool size at 10 concurrent requests (rational range 10–20, 500 req/s at the peak): concurrency-aware scaling resets the pools in front of it to this size after every scale-out, where hardware-only scaling lets them grow past it.",
    );
    expect(rec?.link?.to).toBe("/simulations/new");
    const scenario = concurrencyScenario("app-1", 10, 20, 500);
    expect(rec?.link?.state).toEqual({ scenario });
    // 10 cores at 20 ms a request: 500 req/s at concurrency 10; the spike to 400 req/s needs 8 app VMs at 50%
    expect(scenario.cluster.tiers[1]).toEqual({ name: "app-1", cores: 10, service_s: { dist: "exponential", mean: 0.02 }, overhead: { q_upper: 20, factor: 0.97 } });
    expect(scenario.cluster.tiers[0]).toMatchObject({ name: "app", pool_limit: 10, vms: { min: 1, max: 8, start: 3 } });
    expect(scenario.workload.arrivals.profile).toEqual([[0, 125], [1200, 400], [1500, 125]]);
    expect(concurrencyScenario("app", 10, null, 500).cluster.tiers[1]).toEqual({ name: "db", cores: 10, service_s: { dist: "exponential", mean: 0.02 } });
  });

  it("is absent without a pool size and weak with warnings", () => {
    expect(sctRecommendation("a", sctServer({ q_lower: null }))).toBeNull();
    expect(sctRecommendation("a", sctServer({ q_upper: null, q_max_observed: 36 }))?.text).toMatch(/rational range 10 and above \(no decline seen\)/);
    expect(sctRecommendation("a", sctServer({ warnings: ["few intervals"] }))?.confidence).toBe("weak fit");
  });

  it("is linked from the concurrency view", () => {
    const router = createMemoryRouter([{ path: "/", element: <ConcurrencyView report={sctReport()} chartWidth={600} /> }]);
    render(<RouterProvider router={router} />);
    expect(screen.getByTestId("sct-scaling-recommendation")).toHaveTextContent("SCT puts app-1's best pool size at 10");
    expect(screen.getByTestId("sct-scaling-link")).toHaveAttribute("href", "/simulations/new");
  });
});
