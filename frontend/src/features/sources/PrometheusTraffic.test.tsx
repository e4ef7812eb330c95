import { render, screen, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { user } from "../../test/fixtures";
import { jsonResponse, renderWithApp } from "../../test/render";
import type { ClassTraffic, PrometheusTraffic } from "./api";
import { NeedsALog, PrometheusOverview, PrometheusTrafficCharts } from "./PrometheusTraffic";
import { classRows } from "./trafficRows";

const T0 = Date.parse("2026-01-01T00:00:00Z");
const iso = (minute: number) => new Date(T0 + minute * 60_000).toISOString();

function klass(name: string, rates: (number | null)[], errors: number | null, changes: Partial<ClassTraffic> = {}): ClassTraffic {
  const requests = rates.reduce<number>((sum, r) => sum + (r ?? 0) * 60, 0);
  return {
    name,
    intervals: rates.filter((r) => r !== null).length,
    gap_intervals: rates.filter((r) => r === null).length,
    requests,
    errors,
    error_share: errors === null ? null : errors / requests,
    rate_per_s_mean: 10,
    rate_per_s_peak: 15,
    latency_p50_s: 0.0693,
    latency_p95_s: 0.2997,
    latency_p99_s: 0.45,
    p95_bucket_low_s: 0.25,
    p95_bucket_high_s: 0.3,
    points: rates.map((r, i) => ({ t: iso(i), rate_per_s: r, error_share: errors === null || r === null ? null : 0.2 })),
    ...changes,
  };
}

function traffic(classes: ClassTraffic[]): PrometheusTraffic {
  return {
    dataset_id: 3,
    step_s: 60,
    interval_s: 60,
    start: iso(0),
    end: iso(3),
    span_s: 180,
    bucket_bounds_s: [0.05, 0.1, 0.25, 0.3, 1],
    note: "percentiles are interpolated within histogram buckets",
    not_recorded: {
      bytes: "a request counter and a latency histogram record no response sizes",
      clients: "the series record no clients or sessions",
      latency_max_s: "a histogram keeps no maximum, only the bucket each latency fell in",
      status_mix: "the requests are split into errors and the rest only (the error label)",
    },
    classes,
  };
}

function stubApi(answer: PrometheusTraffic): URL[] {
  const asked: URL[] = [];
  vi.stubGlobal(
    "fetch",
    vi.fn(async (request: Request) => {
      const url = new URL(request.url);
      if (url.pathname === "/api/v1/auth/me") return jsonResponse(200, user);
      if (url.pathname === "/api/v1/sources/prometheus/datasets/3/traffic") {
        asked.push(url);
        return jsonResponse(200, answer);
      }
      return jsonResponse(404, { error: { code: "not_found", message: url.pathname } });
    }),
  );
  return asked;
}

afterEach(() => {
  vi.unstubAllGlobals();
  window.localStorage.clear();
});

describe("a Prometheus dataset's Overview", () => {
  it("shows the intervals' figures, the p95's bucket, and what a histogram cannot give as not recorded", async () => {
    stubApi(traffic([klass("all", [10, 15, 5], 200)]));
    renderWithApp(<PrometheusOverview datasetId={3} />);
    const requests = await screen.findByRole("group", { name: "Requests" });
    expect(requests).toHaveTextContent("1,800");
    expect(requests).toHaveTextContent("3 intervals of minute");
    expect(screen.getByRole("group", { name: "Errors" })).toHaveTextContent("11.11%");
    const p95 = screen.getByRole("group", { name: "Latency p95" });
    expect(p95).toHaveTextContent("interpolated within buckets");
    expect(p95).toHaveTextContent("250 ms – 300 ms");
    for (const label of ["Latency max", "Data volume", "Clients", "Client errors (4xx)"]) {
      const card = screen.getByRole("group", { name: label });
      expect(card).toHaveTextContent("not recorded");
      expect(card).not.toHaveTextContent(/\b0( B|%)?$/);
    }
    expect(screen.getByTestId("prometheus-note")).toHaveTextContent("interpolated within histogram buckets");
    expect(screen.queryByTestId("prometheus-classes")).toBeNull(); // one class: no table
  });

  it("says errors are not recorded without an error label, never 0%", async () => {
    stubApi(traffic([klass("all", [10, 10, 10], null), klass("/a", [10, 10, 10], null)]));
    renderWithApp(<PrometheusOverview datasetId={3} />);
    const errors = await screen.findByRole("group", { name: "Errors" });
    expect(errors).toHaveTextContent("not recorded");
    expect(errors).toHaveTextContent("the source has no error label");
    expect(errors).not.toHaveTextContent("%");
    expect(screen.getByTestId("prometheus-classes")).toHaveTextContent("/a");
  });

  it("asks for the page's range (epoch ms from the URL)", async () => {
    const asked = stubApi(traffic([klass("all", [10], 0)]));
    renderWithApp(<PrometheusOverview datasetId={3} />, { path: "/?from=2026-01-01T00:30:00Z&to=2026-01-01T01:30:00Z" });
    await screen.findByRole("group", { name: "Requests" });
    expect(asked[0]?.searchParams.get("from")).toBe(String(T0 + 30 * 60_000));
    expect(asked[0]?.searchParams.get("to")).toBe(String(T0 + 90 * 60_000));
  });
});

describe("a Prometheus dataset's Traffic", () => {
  it("draws the rate per class, with a gap (null, never 0) where a class has no sample", () => {
    const rows = classRows([klass("all", [15, 10, 15], 0), klass("/b", [5, null, 5], 0)], "rate_per_s");
    expect(rows).toEqual([
      { t: T0, c0: 15, c1: 5 },
      { t: T0 + 60_000, c0: 10, c1: null },
      { t: T0 + 120_000, c0: 15, c1: 5 },
    ]);
  });

  it("shows both charts, or says the error share is not recorded", async () => {
    stubApi(traffic([klass("all", [10, 15, 5], null), klass("/a", [10, 10, 5], null)]));
    renderWithApp(<PrometheusTrafficCharts datasetId={3} />);
    expect(await screen.findByTestId("chart-prometheus-rate")).toBeInTheDocument();
    expect(screen.getByText("Request rate per minute, per class")).toBeInTheDocument();
    expect(screen.getByTestId("prometheus-errors-not-recorded")).toHaveTextContent("not recorded: the source has no error label");
    expect(screen.queryByTestId("chart-prometheus-errors")).toBeNull();
  });

  it("draws the error share when the source has an error label", async () => {
    stubApi(traffic([klass("all", [10, 15, 5], 180)]));
    renderWithApp(<PrometheusTrafficCharts datasetId={3} />);
    await waitFor(() => expect(screen.getByTestId("chart-prometheus-errors")).toBeInTheDocument());
    expect(screen.getByText("Error share per minute")).toBeInTheDocument();
  });
});

describe("a tab that needs a log", () => {
  it("says so in words", () => {
    render(<NeedsALog tab="workload" />);
    expect(screen.getByTestId("needs-a-log")).toHaveTextContent("The workload model (sessions, think times, request classes) needs a request log");
  });
});
