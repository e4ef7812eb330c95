import { fireEvent, screen, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { user } from "../../test/fixtures";
import { jsonResponse, renderWithApp } from "../../test/render";
import { SourcesPage } from "./SourcesPage";

interface Sent {
  method: string;
  path: string;
  body: unknown;
}

const T0 = "2026-11-01T00:00:00Z";
const source = {
  id: 7,
  workspace_id: 1,
  name: "checkout",
  base_url: "http://prometheus:9090/",
  auth: "bearer",
  username: null,
  has_secret: true,
  requests_selector: "http_requests_total",
  latency_selector: "http_request_duration_seconds_bucket",
  class_label: "route",
  error_label: "code",
  error_pattern: "5..",
  step_s: 60,
  window_s: 7 * 86400,
  refresh: true,
  dataset_id: 3,
  job: null,
  last_refresh_at: T0,
  last_error: "Prometheus at http://prometheus:9090 answered HTTP 503 (timeout): the server is unavailable",
  last_summary: { rate_per_s: { mean: 14.05, peak: 15 }, latency_p95_s: 0.2997 },
  created_at: T0,
};

function stubApi(): Sent[] {
  const sent: Sent[] = [];
  vi.stubGlobal(
    "fetch",
    vi.fn(async (request: Request) => {
      const path = new URL(request.url).pathname;
      const text = request.method === "GET" ? "" : await request.text();
      const call = { method: request.method, path, body: text === "" ? null : (JSON.parse(text) as unknown) };
      sent.push(call);
      if (path === "/api/v1/auth/me") return jsonResponse(200, user);
      if (path === "/api/v1/sources/prometheus" && call.method === "GET") return jsonResponse(200, [source]);
      if (path === "/api/v1/sources/prometheus") return jsonResponse(201, { ...source, id: 8 });
      if (path.endsWith("/test")) return jsonResponse(200, { ok: false, version: "2.42.0", series: 0, reason: "the selector 'x' matches no series in the window" });
      if (path.endsWith("/import")) return jsonResponse(202, { ...source, job: { id: 9, kind: "sources.prometheus_import", status: "queued", progress: 0, stage: "queued", eta_s: null, attempts: 0, error_code: null, error_message: null, created_at: T0, started_at: null, finished_at: null } });
      return jsonResponse(404, { error: { code: "not_found", message: `no ${path}` } });
    }),
  );
  return sent;
}

afterEach(() => {
  vi.unstubAllGlobals();
  window.localStorage.clear();
});

describe("SourcesPage", () => {
  it("shows a source's figures and last error, never a secret field", async () => {
    stubApi();
    renderWithApp(<SourcesPage />);
    expect(await screen.findByText(/^15(\.0+)?\/s peak$/)).toBeInTheDocument();
    expect(screen.getByText(/answered HTTP 503/)).toBeInTheDocument();
    expect(screen.getByText(/bearer auth \(stored\)/)).toBeInTheDocument();
  });

  it("sends the form with the secret only for the chosen auth, and shows a failed test's reason", async () => {
    const sent = stubApi();
    renderWithApp(<SourcesPage />);
    await screen.findByText("checkout");
    fireEvent.change(screen.getByLabelText("Name"), { target: { value: "shop" } });
    fireEvent.change(screen.getByLabelText("Authentication"), { target: { value: "bearer" } });
    fireEvent.change(screen.getByLabelText("Token"), { target: { value: "s3cret" } });
    fireEvent.click(screen.getByRole("button", { name: "Add source" }));
    await waitFor(() => expect(sent.some((s) => s.method === "POST" && s.path === "/api/v1/sources/prometheus")).toBe(true));
    const created = sent.find((s) => s.method === "POST" && s.path === "/api/v1/sources/prometheus")?.body as Record<string, unknown>;
    expect(created).toMatchObject({ name: "shop", auth: "bearer", secret: "s3cret", username: null, window_s: 168 * 3600 });
    fireEvent.click(screen.getByRole("button", { name: "Test connection of checkout" }));
    expect(await screen.findByText("the selector 'x' matches no series in the window")).toBeInTheDocument();
    fireEvent.click(screen.getByRole("button", { name: "Import checkout now" }));
    await waitFor(() => expect(sent.some((s) => s.path === "/api/v1/sources/prometheus/7/import")).toBe(true));
  });
});
