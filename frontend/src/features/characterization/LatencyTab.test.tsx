import { fireEvent, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { makeSummary } from "../../test/fixtures";
import { jsonResponse, renderWithApp } from "../../test/render";
import { DatasetIdContext } from "./datasetContext";
import { LatencyTab } from "./LatencyTab";
import type { CharacterizationResult, PercentileColumns } from "./result";

const T0 = Date.UTC(2026, 0, 1, 10, 0);
const whole: PercentileColumns = { t_ms: [T0, T0 + 60_000], count: [50, 60], p50_s: [0.1, 0.1], p90_s: [0.2, 0.2], p95_s: [0.3, 0.3], p99_s: [0.4, 0.4], max_s: [1, 1] };

function result(): CharacterizationResult {
  return {
    requests: 110,
    latency: { count: 110, p50_s: 0.1, p90_s: 0.2, p95_s: 0.3, p99_s: 0.4, max_s: 1 },
    latency_by_class: { dynamic: { count: 110, p50_s: 0.1, p90_s: 0.2, p95_s: 0.3, p99_s: 0.4, max_s: 1 } },
    display: { arrivals: {}, daily_profile: null, latency: { every_s: 60, overall: whole, by_class: { dynamic: whole } }, paths: [], pages_per_session: null },
    fields_recorded: {},
  } as unknown as CharacterizationResult;
}

function stubApi() {
  const calls: URL[] = [];
  vi.stubGlobal(
    "fetch",
    vi.fn((request: Request) => {
      const url = new URL(request.url);
      calls.push(url);
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
  it("draws the characterization it is given (the filters' own), per class, and says so", async () => {
    const calls = stubApi();
    show(`/datasets/3?tab=latency&from=${T0}&to=${T0 + 120_000}&host=api.example&status=5xx`);
    expect(await screen.findByText(/the requests the filters keep \(their own characterization\)/)).toBeInTheDocument();
    expect(screen.getByText(/\(the requests the filters keep\)/)).toBeInTheDocument();
    expect(screen.getByTestId("latency-scope")).toBeInTheDocument();
    expect(screen.getByTestId("paths-table")).toHaveTextContent("Of the requests the filters keep, over the whole log: the range does not cut this table.");
    expect(calls.some((u) => u.pathname.endsWith("/latency"))).toBe(false);
    const summary = calls.find((u) => u.pathname.endsWith("/summary")); // the cards: range and filters
    expect(summary?.searchParams.get("host")).toBe("api.example");
    expect(summary?.searchParams.get("from")).toBe(String(T0));
  });

  it("names a class of the filtered requests", async () => {
    stubApi();
    show("/datasets/3?tab=latency&host=api.example");
    fireEvent.click(await screen.findByRole("radio", { name: "dynamic" }));
    expect(await screen.findByText(/\(class dynamic of the requests the filters keep\)/)).toBeInTheDocument();
    expect(screen.getByTestId("paths-table")).toHaveTextContent("Of the requests the filters keep. The");
    expect(screen.queryByTestId("latency-class-whole")).toBeNull(); // no range: nothing to say
  });

  it("says a class's cards are not cut to the range", async () => {
    stubApi();
    show(`/datasets/3?tab=latency&from=${T0}&host=api.example`);
    fireEvent.click(await screen.findByRole("radio", { name: "dynamic" }));
    expect(await screen.findByTestId("latency-class-whole")).toHaveTextContent("Class dynamic's figures are the filtered requests': the range cuts the chart only.");
  });

  it("draws the characterization's series, with no request, without filters", async () => {
    const calls = stubApi();
    show(`/datasets/3?tab=latency&from=${T0}&to=${T0 + 60_000}`);
    expect(await screen.findByText(/\(all requests\)/)).toBeInTheDocument();
    expect(screen.getByTestId("latency-scope")).toBeInTheDocument();
    expect(screen.getByTestId("paths-table")).toHaveTextContent("Of the whole log: the range does not cut this table.");
    expect(calls.some((u) => u.pathname.endsWith("/latency"))).toBe(false);
  });
});
