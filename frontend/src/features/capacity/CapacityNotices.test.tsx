import { render, screen, waitFor, within } from "@testing-library/react";
import { QueryClientProvider } from "@tanstack/react-query";
import { MemoryRouter } from "react-router";
import { afterEach, describe, expect, it, vi } from "vitest";
import { capacityParams, capacityReport, kneeClass } from "../../test/capacityFixtures";
import { jsonResponse, renderWithApp, testQueryClient } from "../../test/render";
import { AnalysisView } from "./AnalysisView";
import { ParamsForm } from "./ParamsForm";
import { CapacitySection, NO_LATENCY_NOTICE } from "./CapacitySection";
import { SERVERS_FIELD_ID, THRESHOLD_FIELD_ID } from "./params";

vi.setConfig({ testTimeout: 30_000 });

afterEach(() => vi.unstubAllGlobals());

/** Dataset 2's analyses (none) and its traffic summary, with or without response times. */
function stubApi(latency: object | null) {
  vi.stubGlobal(
    "fetch",
    vi.fn(async (request: Request) => {
      const path = new URL(request.url).pathname;
      if (path === "/api/v1/datasets/2/analyses") return jsonResponse(200, { items: [], total: 0 });
      if (path === "/api/v1/datasets/2/summary") return jsonResponse(200, { dataset_id: 2, latency, span_s: 600 });
      return jsonResponse(404, { error: { code: "not_found", message: `no ${path}` } });
    }),
  );
}

describe("capacity notices", () => {
  it("the form says beforehand that a log without response times cannot be analysed", async () => {
    stubApi(null);
    renderWithApp(<CapacitySection datasetId={2} />);
    const notice = await screen.findByTestId("capacity-blocker");
    expect(notice).toHaveTextContent(NO_LATENCY_NOTICE);
    expect(screen.getByTestId("capacity-run")).toBeDisabled();
  });

  it("a log with response times can be started", async () => {
    stubApi({ count: 10, mean_s: 0.1, p50_s: 0.1, p95_s: 0.2, p99_s: 0.3, max_s: 0.4 });
    renderWithApp(<CapacitySection datasetId={2} />);
    await waitFor(() => expect(screen.getByTestId("capacity-run")).toBeEnabled());
    expect(screen.queryByTestId("capacity-blocker")).not.toBeInTheDocument();
    expect(screen.getByLabelText("Servers in this log (optional)")).toHaveAttribute("id", SERVERS_FIELD_ID);
  });

  it("a metrics source's form asks for the servers behind its series, which it does not record", () => {
    render(<ParamsForm onRun={() => {}} running={false} error={null} canRun windowFixed="the source's step intervals" />);
    const servers = screen.getByLabelText("Servers behind these series (optional)");
    expect(servers).toHaveAttribute("placeholder", "not recorded");
    expect(screen.queryByLabelText(/Servers in this log/)).not.toBeInTheDocument();
    expect(screen.queryByLabelText("Window (s)")).not.toBeInTheDocument();
  });

  it("notices speak the form's words and link to the control that fixes them", () => {
    const cls = kneeClass({
      warnings: ["no SLA threshold: no knee or breaking point was found; set a threshold", "the queueing model fitted 31 servers; set the servers in this log to fix it"],
    });
    render(
      <QueryClientProvider client={testQueryClient()}>
<MemoryRouter>
        <AnalysisView analysisId={7} report={capacityReport({ classes: { all: cls } })} params={capacityParams()} chartWidth={640} />
      </MemoryRouter>
</QueryClientProvider>,
    );
    const box = screen.getByTestId("capacity-warnings");
    expect(box).not.toHaveTextContent(/threshold_s|model_servers/);
    expect(within(box).getByRole("link", { name: "Set a threshold" })).toHaveAttribute("href", `#${THRESHOLD_FIELD_ID}`);
    expect(within(box).getByRole("link", { name: "Set the servers in this log" })).toHaveAttribute("href", `#${SERVERS_FIELD_ID}`);
  });
});
