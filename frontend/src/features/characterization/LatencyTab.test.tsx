import { screen, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { makeSummary } from "../../test/fixtures";
import { jsonResponse, renderWithApp } from "../../test/render";
import { DatasetIdContext } from "./datasetContext";
import { LatencyTab } from "./LatencyTab";
import type { CharacterizationResult, PercentileColumns } from "./result";

const T0 = Date.UTC(2026, 0, 1, 10, 0);
const whole: PercentileColumns = { t_ms: [T0, T0 + 60_000], count: [50, 60], p50_s: [0.1, 0.1], p90_s: [0.2, 0.2], p95_s: [0.3, 0.3], p99_s: [0.4, 0.4], max_s: [1, 1] };
// the API's series for the filters: other buckets, other counts than the whole log's
const filtered = { dataset_id: 3, every_s: 60, t_ms: [T0 + 60_000], count: [7], p50_s: [0.5], p90_s: [0.6], p95_s: [0.7], p99_s: [0.8], max_s: [2] };

function result(): CharacterizationResult {
  return {
    requests: 110,
    latency: { count: 110, p50_s: 0.1, p90_s: 0.2, p95_s: 0.3, p99_s: 0.4, max_s: 1 },
    latency_by_class: { dynamic: { count: 110, p50_s: 0.1, p90_s: 0.2, p95_s: 0.3, p99_s: 0.4, max_s: 1 } },
    display: { arrivals: {}, daily_profile: null, latency: { every_s: 60, overall: whole, by_class: { dynamic: whole } }, paths: [], pages_per_session: null },
    fields_recorded: { path: false },
  } as unknown as CharacterizationResult;
}

function stubApi() {
  const calls: URL[] = [];
  vi.stubGlobal(
    "fetch",
    vi.fn((request: Request) => {
      const url = new URL(request.url);
      calls.push(url);
      if (url.pathname === "/api/v1/datasets/3/latency") return Promise.resolve(jsonResponse(200, filtered));
      if (url.pathname === "/api/v1/datasets/3/summary") return Promise.resolve(jsonResponse(200, makeSummary()));
      return Promise.resolve(jsonResponse(404, { error: { code: "not_found", message: url.pathname } }));
    }),
  );
  return calls;
}

function show(path: string) {
  return renderWithApp(
    <DatasetIdContext.Provider value={3}>
      <LatencyTab result={result()} />
    </DatasetIdContext.Provider>,
    { path, route: "/datasets/:id" },
  );
}

afterEach(() => vi.unstubAllGlobals());

describe("the Latency tab under filters", () => {
  it("draws the slice's series the API recomputes for the range and filters, not the whole log's", async () => {
    const calls = stubApi();
    show(`/datasets/3?tab=latency&from=${T0}&to=${T0 + 120_000}&host=api.example&status=5xx`);
    expect(await screen.findByText(/the 7 timed requests the filters keep/)).toBeInTheDocument();
    const asked = calls.find((u) => u.pathname.endsWith("/latency"));
    expect(asked?.searchParams.get("every_s")).toBe("60");
    expect(asked?.searchParams.get("host")).toBe("api.example");
    expect(asked?.searchParams.get("status_class")).toBe("5xx");
    expect(asked?.searchParams.get("from")).toBe(String(T0));
    expect(asked?.searchParams.get("to")).toBe(String(T0 + 120_000));
    // the class picker reads the whole log's classes: not offered under filters
    expect(screen.queryByTestId("latency-scope")).toBeNull();
  });

  it("says so when the API cannot recompute it", async () => {
    vi.stubGlobal(
      "fetch",
      vi.fn(() => Promise.resolve(jsonResponse(422, { error: { code: "bad_resolution", message: "too many buckets", field: "every_s" } }))),
    );
    show("/datasets/3?tab=latency&host=api.example");
    await waitFor(() => expect(screen.getByText("Could not recompute the latency for the filters")).toBeInTheDocument());
  });

  it("draws the characterization's series, with no request, without filters", async () => {
    const calls = stubApi();
    show(`/datasets/3?tab=latency&from=${T0}&to=${T0 + 60_000}`);
    expect(await screen.findByText(/\(all requests\)/)).toBeInTheDocument();
    expect(screen.getByTestId("latency-scope")).toBeInTheDocument();
    expect(calls.some((u) => u.pathname.endsWith("/latency"))).toBe(false);
  });
});
