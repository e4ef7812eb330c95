import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { Analysis } from "../../api/models";
import { analysis, capacityParams, capacityReport, recommendation } from "../../test/capacityFixtures";
import { makeJob } from "../../test/fixtures";
import { jsonResponse, renderWithApp } from "../../test/render";
import { actAsViewer } from "../workspaces/viewerTest";
import { CapacitySection } from "./CapacitySection";

interface Stub {
  items: Analysis[];
  posted: unknown[];
}

/** The analyses API of dataset 2: list, read, create (which answers with `created`). */
function stubApi(items: Analysis[], created?: Analysis): Stub {
  const stub: Stub = { items, posted: [] };
  vi.stubGlobal(
    "fetch",
    vi.fn(async (request: Request) => {
      const path = new URL(request.url).pathname;
      if (path === "/api/v1/datasets/2/analyses" && request.method === "POST") {
        stub.posted.push(await request.json());
        if (created !== undefined) stub.items = [created, ...stub.items];
        return jsonResponse(202, created);
      }
      const served = stub.items.find((a) => path === `/api/v1/analyses/${a.id}/recommendations`);
      if (served !== undefined) {
        const body = (await request.json()) as { thresholds_s: Record<string, number> };
        return jsonResponse(200, { analysis_id: served.id, thresholds_s: body.thresholds_s, items: [recommendation({ text: `Served at ${JSON.stringify(body.thresholds_s)}.` })] });
      }
      if (path === "/api/v1/datasets/2/analyses") return jsonResponse(200, { items: stub.items, total: stub.items.length });
      const one = stub.items.find((a) => path === `/api/v1/analyses/${a.id}`);
      if (one !== undefined) return jsonResponse(200, one);
      const job = stub.items.find((a) => a.job !== null && path === `/api/v1/jobs/${a.job.id}`);
      if (job !== undefined) return jsonResponse(200, job.job);
      return jsonResponse(404, { error: { code: "not_found", message: `no ${path}` } });
    }),
  );
  return stub;
}

// Each case renders several Recharts charts in jsdom: seconds on a loaded 2-core machine, not a speed check.
vi.setConfig({ testTimeout: 30_000 });

afterEach(() => {
  vi.unstubAllGlobals();
  window.localStorage.clear();
});

const done = analysis({ job: makeJob({ id: 11, kind: "capacity.analyze", status: "succeeded", progress: 1, stage: "done" }), result: { ...capacityReport() } });

describe("CapacitySection", () => {
  it("refuses a bad percentile naming the field, then posts the parameters and shows the new run", async () => {
    const queued = analysis({ id: 8, job: makeJob({ id: 12, kind: "capacity.analyze", status: "queued" }), params: capacityParams({ percentile: 99 }) });
    const stub = stubApi([], queued);
    renderWithApp(<CapacitySection datasetId={2} />);
    expect(await screen.findByText(/No analysis yet/)).toBeInTheDocument();
    const percentile = screen.getByLabelText("Percentile");
    fireEvent.change(percentile, { target: { value: "20" } });
    fireEvent.submit(screen.getByRole("form", { name: "Capacity analysis parameters" }));
    expect(screen.getByRole("alert")).toHaveTextContent("Percentile must be between 50 and 99.9.");
    expect(stub.posted).toEqual([]);
    fireEvent.change(percentile, { target: { value: "99" } });
    fireEvent.change(screen.getByLabelText("Threshold (s, optional)"), { target: { value: "0.4" } });
    fireEvent.click(screen.getByTestId("capacity-run"));
    await waitFor(() => expect(stub.posted).toEqual([{ percentile: 99, stance: "balanced", window_s: 10, threshold_s: 0.4 }]));
    const runs = await screen.findByTestId("capacity-runs");
    expect(within(runs).getByRole("button", { pressed: true })).toHaveTextContent("p99 · balanced · 10 s windows");
    expect(await screen.findByTestId("job-progress")).toBeInTheDocument();
  });

  it("explains a log without response times and offers an upload", async () => {
    const failed = analysis({
      job: makeJob({ id: 11, kind: "capacity.analyze", status: "failed", error_code: "no_latency", error_message: "the log records no response times" }),
    });
    stubApi([failed]);
    renderWithApp(<CapacitySection datasetId={2} />);
    expect(await screen.findByText("This log has no response times")).toBeInTheDocument();
    expect(screen.getByText(/Turn on the field named above/)).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Upload a log with response times" })).toHaveAttribute("href", "/upload");
  });

  it("updates MaxRate, MaxConn and the servers needed live from a threshold of the user's own", async () => {
    stubApi([done]);
    renderWithApp(<CapacitySection datasetId={2} />);
    // the analysis' threshold 0.2 s: MaxRate 20 req/s, MaxConn 4 (the fixture's curve)
    expect(await screen.findByTestId("sla-max-rate")).toHaveTextContent("20 req/s");
    expect(screen.getByTestId("sla-max-conn")).toHaveTextContent("4");
    fireEvent.change(screen.getByTestId("sla-user-threshold"), { target: { value: "500" } });
    fireEvent.click(within(screen.getByLabelText("Threshold per stance")).getAllByRole("button", { name: "Use" })[3] as HTMLElement);
    // 0.5 s is the latency at 30 req/s, where the concurrency is 15; peak 45 req/s needs ceil(45 / 30) = 2 servers
    expect(screen.getByTestId("sla-threshold")).toHaveTextContent("500 ms");
    expect(screen.getByTestId("sla-max-rate")).toHaveTextContent("30 req/s");
    expect(screen.getByTestId("sla-max-conn")).toHaveTextContent("15");
    expect(screen.getByTestId("sla-servers-peak")).toHaveTextContent("servers needed: 2");
    // the served recommendations follow the threshold
    await waitFor(() => expect(screen.getByTestId("capacity-recommendations")).toHaveTextContent('Served at {"all":0.5}.'), { timeout: 10_000 });
  });

  it("lists only capacity analyses", async () => {
    const sct = analysis({ id: 9, kind: "sct", params: { kind: "sct", interval_ms: 50, window_s: 180 } });
    stubApi([sct, done]);
    renderWithApp(<CapacitySection datasetId={2} />);
    const runs = await screen.findByTestId("capacity-runs");
    expect(within(runs).getAllByRole("button")).toHaveLength(1);
  });

  it("shows a viewer the earlier runs but no form to start one", async () => {
    actAsViewer();
    stubApi([done]);
    renderWithApp(<CapacitySection datasetId={2} />);
    expect(await screen.findByText("Capacity analyses")).toBeInTheDocument();
    expect(await screen.findByTestId("capacity-runs")).toBeInTheDocument();
    expect(screen.queryByRole("form", { name: "Capacity analysis parameters" })).not.toBeInTheDocument();
  });
});
