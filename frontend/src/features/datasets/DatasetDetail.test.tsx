import { screen, waitFor, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { Dataset, TrafficSummary } from "../../api/models";
import { makeDataset, makeJob, makeSummary } from "../../test/fixtures";
import { jsonResponse, renderWithApp } from "../../test/render";
import { actAsViewer } from "../workspaces/viewerTest";
import { DatasetDetail } from "./DatasetDetail";

function stubApi(dataset: Dataset, summary: TrafficSummary | null) {
  vi.stubGlobal(
    "fetch",
    vi.fn((request: Request) => {
      const path = new URL(request.url).pathname;
      if (path === "/api/v1/datasets/3") return Promise.resolve(jsonResponse(200, dataset));
      if (path === "/api/v1/datasets/3/summary" && summary !== null) {
        return Promise.resolve(jsonResponse(200, summary));
      }
      if (path === "/api/v1/jobs/7") return Promise.resolve(jsonResponse(200, dataset.job));
      return Promise.resolve(jsonResponse(404, { error: { code: "not_found", message: "Dataset 3 not found." } }));
    }),
  );
}

afterEach(() => vi.unstubAllGlobals());

const ready = makeDataset({ status: "ready", format: "combined", job: makeJob({ status: "succeeded", progress: 1 }) });

describe("DatasetDetail", () => {
  it("shows the stat cards, both charts and the rejected lines of a ready dataset", async () => {
    stubApi(ready, makeSummary());
    renderWithApp(<DatasetDetail datasetId={3} />);
    expect(await screen.findByTestId("stat-requests")).toHaveTextContent("10,000");
    expect(screen.getByTestId("dataset-title")).toHaveTextContent("access.log");
    expect(screen.getByTestId("stat-error-rate")).toHaveTextContent("1.23%");
    expect(screen.getByTestId("stat-latency-p99")).toHaveTextContent("900 ms");
    expect(screen.getByTestId("stat-span")).toHaveTextContent("2 h 46 min");
    expect(screen.getByTestId("chart-requests")).toBeInTheDocument();
    expect(screen.getByTestId("chart-status")).toBeInTheDocument();
    const rejects = screen.getByTestId("rejects");
    expect(rejects).toHaveTextContent("2 of 10,002 request lines");
    expect(within(rejects).getByText("garbage line")).toBeInTheDocument();
    expect(screen.queryByTestId("no-latency")).not.toBeInTheDocument();
  });

  it("explains a missing latency field instead of showing latency cards", async () => {
    stubApi(ready, makeSummary({ latency: null }));
    renderWithApp(<DatasetDetail datasetId={3} />);
    expect(await screen.findByTestId("no-latency")).toHaveTextContent("This log has no latency field");
    expect(screen.queryByTestId("stat-latency-p50")).not.toBeInTheDocument();
  });

  it("shows the job's progress bar while the dataset is processing", async () => {
    const running = makeJob({ status: "running", progress: 0.25, stage: "parsing", eta_s: 30 });
    stubApi(makeDataset({ status: "processing", job: running }), null);
    renderWithApp(<DatasetDetail datasetId={3} />);
    const bar = await screen.findByTestId("job-progress");
    expect(bar).toHaveAttribute("aria-valuenow", "25");
    expect(screen.queryByTestId("stat-requests")).not.toBeInTheDocument();
  });

  it("shows the job's error and a way forward when processing failed", async () => {
    const failed = makeJob({ status: "failed", error_code: "unparseable_log", error_message: "Line 3 is not a log line." });
    stubApi(makeDataset({ status: "failed", job: failed }), null);
    renderWithApp(<DatasetDetail datasetId={3} />);
    const alert = await screen.findByRole("alert");
    expect(alert).toHaveTextContent("This log could not be processed");
    expect(alert).toHaveTextContent("Line 3 is not a log line.");
    expect(within(alert).getByRole("link", { name: "Upload another file" })).toHaveAttribute("href", "/upload");
    expect(document.title).toBe("access.log · Headroom");
  });

  it("shows the API's message for a dataset that does not exist", async () => {
    stubApi(ready, null);
    renderWithApp(<DatasetDetail datasetId={99} />);
    await waitFor(() => expect(screen.getByRole("alert")).toHaveTextContent("Dataset 3 not found."));
    expect(screen.getAllByText("Dataset not found").length).toBeGreaterThan(0);
  });
});

describe("DatasetDetail for viewers", () => {
  it("does not offer a viewer to upload another file after a failure", async () => {
    actAsViewer();
    const failed = makeJob({ status: "failed", error_code: "unparseable_log", error_message: "Line 3 is not a log line." });
    stubApi(makeDataset({ status: "failed", job: failed }), null);
    renderWithApp(<DatasetDetail datasetId={3} />);
    expect(await screen.findByRole("alert")).toHaveTextContent("Line 3 is not a log line.");
    expect(screen.queryByRole("link", { name: "Upload another file" })).not.toBeInTheDocument();
    window.localStorage.clear();
  });
});
