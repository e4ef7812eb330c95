import { screen, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { jsonResponse, renderWithApp } from "../../test/render";
import { actAsViewer } from "../workspaces/viewerTest";
import { AlertsTab } from "./AlertsTab";

const T0 = "2026-11-26T08:00:00Z";
const evaluation = {
  id: 7,
  rule_id: 3,
  trigger: "ingest",
  outcome: "fired",
  value: 0.08,
  limit_value: 0.05,
  message: "5xx share 8% is above 5%",
  figures: {},
  evaluated_at: T0,
  deliveries: [
    {
      id: 9,
      channel_id: 2,
      channel_name: "Pager",
      purpose: "alert",
      subject: "s",
      status: "failed",
      attempts: 5,
      last_error: "WebhookRefused: the receiver answered 500",
      created_at: T0,
      finished_at: T0,
    },
  ],
};
const rule = {
  id: 3,
  workspace_id: 1,
  dataset_id: 12,
  name: "Server errors",
  kind: "error_rate_above",
  threshold: 0.05,
  channel_ids: [2],
  enabled: true,
  created_at: T0,
  last_evaluation: evaluation,
};

function stubApi(): string[] {
  const sent: string[] = [];
  vi.stubGlobal(
    "fetch",
    vi.fn(async (request: Request) => {
      const path = new URL(request.url).pathname;
      sent.push(`${request.method} ${path}`);
      if (path.endsWith("/alert-rules")) return jsonResponse(200, [rule]);
      if (path.endsWith("/evaluations")) return jsonResponse(200, { items: [evaluation], total: 1 });
      if (path.endsWith("/alert-channels")) return jsonResponse(200, []);
      return jsonResponse(404, { error: { code: "not_found", message: `no ${path}` } });
    }),
  );
  return sent;
}

afterEach(() => {
  vi.unstubAllGlobals();
  window.localStorage.clear();
});

describe("AlertsTab", () => {
  it("shows the rule, its result and a failed delivery in words", async () => {
    stubApi();
    renderWithApp(<AlertsTab datasetId={12} />);
    const rules = await screen.findByTestId("alert-rules");
    expect(within(rules).getByText("Error rate (5xx) above (5%)")).toBeInTheDocument();
    expect(within(rules).getByText("fired")).toBeInTheDocument();
    const history = await screen.findByTestId("alert-history-table");
    expect(within(history).getByText("Pager: failed after 5 tries: WebhookRefused: the receiver answered 500")).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Evaluate now" })).toBeEnabled();
    expect(screen.getByRole("form", { name: "Add an alert rule" })).toBeInTheDocument();
  });

  it("offers a viewer nothing that changes the rules", async () => {
    actAsViewer();
    stubApi();
    renderWithApp(<AlertsTab datasetId={12} />);
    await screen.findByTestId("alert-rules");
    expect(screen.queryByRole("button", { name: "Evaluate now" })).toBeNull();
    expect(screen.queryByRole("form", { name: "Add an alert rule" })).toBeNull();
    expect(screen.queryByRole("button", { name: /Remove rule/ })).toBeNull();
    expect(screen.queryByRole("button", { name: "Pause" })).toBeNull();
    expect(screen.getByRole("button", { name: "History of Server errors" })).toBeEnabled();
  });
});
