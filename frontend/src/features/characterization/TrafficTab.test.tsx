import { screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { makeSummary } from "../../test/fixtures";
import { jsonResponse, renderWithApp } from "../../test/render";
import { DatasetIdContext } from "./datasetContext";
import type { CharacterizationResult } from "./result";
import { TrafficTab } from "./TrafficTab";

function result(): CharacterizationResult {
  return {
    requests: 2880,
    display: { arrivals: {}, default_every_s: 60, daily_profile: { days: 2, mean_per_min: Array.from({ length: 1440 }, () => 1) }, latency: null, paths: [], pages_per_session: null },
    fields_recorded: { span_s: 172_800 },
  } as unknown as CharacterizationResult;
}

function show(path: string) {
  vi.stubGlobal("fetch", vi.fn(() => Promise.resolve(jsonResponse(200, makeSummary()))));
  renderWithApp(
    <DatasetIdContext.Provider value={3}>
      <TrafficTab result={result()} />
    </DatasetIdContext.Provider>,
    { path, route: "/datasets/:id" },
  );
}

afterEach(() => vi.unstubAllGlobals());

describe("the Traffic tab's daily profile", () => {
  it("is the filters' under filters (the tab draws the filters' own characterization)", () => {
    show("/datasets/3?tab=traffic&host=api.example");
    expect(screen.getByText("Daily profile of the requests the filters keep")).toBeInTheDocument();
    expect(screen.getByText(/averaged over the 2 days they span\./)).toBeInTheDocument();
    expect(screen.getByText(/of the requests the filters keep \(their own characterization\)/)).toBeInTheDocument();
  });

  it("says a range does not cut it", () => {
    show(`/datasets/3?tab=traffic&from=${Date.UTC(2026, 0, 1)}&host=api.example`);
    expect(screen.getByText(/the 2 days they span: whatever the range\./)).toBeInTheDocument();
  });

  it("says it is the whole log's under a range alone", () => {
    show(`/datasets/3?tab=traffic&from=${Date.UTC(2026, 0, 1)}`);
    expect(screen.getByText("Daily profile of the whole log")).toBeInTheDocument();
    expect(screen.getByText(/every request, whatever the range/)).toBeInTheDocument();
  });

  it("is plainly the daily profile without a slice", () => {
    show("/datasets/3?tab=traffic");
    expect(screen.getByText("Daily profile")).toBeInTheDocument();
    expect(screen.queryByText(/whatever the range/)).toBeNull();
  });
});
