import { screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { makeDataset, makeJob, user } from "../../test/fixtures";
import { jsonResponse, renderWithApp } from "../../test/render";
import { DatasetDetail } from "../datasets/DatasetDetail";

const dataset = makeDataset({
  status: "ready",
  format: "prometheus",
  size_bytes: 0,
  job: makeJob({ status: "succeeded", progress: 1 }),
  source: { kind: "prometheus", source_id: 7, live: true, refreshed_at: "2026-01-01T03:00:00Z" },
});

const all = {
  name: "all",
  intervals: 178,
  gap_intervals: 2,
  requests: 150_000,
  errors: 1500,
  error_share: 0.01,
  rate_per_s_mean: 14,
  rate_per_s_peak: 15,
  latency_p50_s: 0.07,
  latency_p95_s: 0.3,
  latency_p99_s: 0.45,
  p95_bucket_low_s: 0.25,
  p95_bucket_high_s: 0.3,
  points: [{ t: "2026-01-01T00:00:00Z", rate_per_s: 14, error_share: 0.01 }],
};

/** A capacity run made with the form's default window length, which the intervals ignore. */
const analysis = {
  id: 5,
  workspace_id: 1,
  dataset_id: 3,
  kind: "capacity",
  params: { kind: "capacity", percentile: 95, stance: "balanced", window_s: 10, slice: null },
  created_at: "2026-01-01T04:00:00Z",
  created_by: null,
  job: makeJob({ status: "running", progress: 0.5 }),
  result: null,
};

function stubApi() {
  vi.stubGlobal(
    "fetch",
    vi.fn(async (request: Request) => {
      const path = new URL(request.url).pathname;
      if (path === "/api/v1/auth/me") return jsonResponse(200, user);
      if (path === "/api/v1/datasets/3") return jsonResponse(200, dataset);
      if (path === "/api/v1/datasets/3/analyses") return jsonResponse(200, { items: [analysis], total: 1 });
      if (path === "/api/v1/sources/prometheus/datasets/3/traffic") {
        return jsonResponse(200, { dataset_id: 3, step_s: 60, interval_s: 60, start: "2026-01-01T00:00:00Z", end: "2026-01-01T03:00:00Z", span_s: 10800, bucket_bounds_s: [0.25, 0.3], note: "n", not_recorded: {}, classes: [all] });
      }
      return jsonResponse(404, { error: { code: "not_found", message: `no ${path}` } });
    }),
  );
}

afterEach(() => {
  vi.unstubAllGlobals();
  window.localStorage.clear();
});

describe("a dataset a Prometheus source keeps", () => {
  it("shows its source and interval count in the header, never a size of 0 B", async () => {
    stubApi();
    renderWithApp(<DatasetDetail datasetId={3} />);
    expect(await screen.findByTestId("dataset-header-intervals")).toHaveTextContent("180 intervals of minute");
    expect(screen.getByTestId("dataset-header-source")).toHaveTextContent("from Prometheus");
    expect(screen.queryByText("0 B")).toBeNull();
    expect(await screen.findByTestId("prometheus-overview")).toBeInTheDocument();
  });

  it("says a log-only tab needs a request log", async () => {
    stubApi();
    renderWithApp(<DatasetDetail datasetId={3} />, { path: "/?tab=concurrency" });
    expect(await screen.findByTestId("needs-a-log")).toHaveTextContent("Requests in flight needs a request log");
    expect(screen.queryByTestId("slice-shown")).toBeNull();
  });

  it("hides the capacity form's window field and says why", async () => {
    stubApi();
    renderWithApp(<DatasetDetail datasetId={3} />, { path: "/?tab=capacity" });
    expect(await screen.findByTestId("capacity-window-fixed")).toHaveTextContent("the source's step intervals");
    expect(screen.queryByLabelText("Window (s)")).toBeNull();
    expect(screen.getByLabelText("Percentile")).toBeInTheDocument();
    const run = await screen.findByTestId("capacity-runs");
    expect(run).toHaveTextContent("p95 · balanced · step intervals");
    expect(run).not.toHaveTextContent("10 s windows");
  });
});
