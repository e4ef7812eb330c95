import { fireEvent, screen, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { makeJob } from "../../test/fixtures";
import { jsonResponse, renderWithApp } from "../../test/render";
import { WORKSPACE_STORAGE_KEY } from "../workspaces/workspaceContext";
import { AddToReport } from "./AddToReport";

interface Sent {
  method: string;
  path: string;
  body: unknown;
}

const summary = { id: 5, workspace_id: 1, title: "Q3 capacity", visibility: "workspace", item_count: 2, created_by: null, created_at: "2026-11-01T00:00:00Z", updated_at: "2026-11-01T00:00:00Z" };

function report(id: number, title: string, items: number) {
  return { ...summary, id, title, item_count: items, notes_md: "", notes_html: "", can_edit: true, items: Array.from({ length: items }, (_, i) => ({ id: i })) };
}

function analysis(status: "running" | "succeeded") {
  const result = status === "succeeded" ? { classes: { static: {}, dynamic: {} } } : null;
  return { id: 9, workspace_id: 1, dataset_id: 3, kind: "capacity", params: { kind: "capacity" }, created_at: "2026-11-01T00:00:00Z", created_by: null, job: makeJob({ id: 4, status, progress: status === "succeeded" ? 1 : 0.5 }), result };
}

function stubApi({ reports, analysisStatus = "succeeded" }: { reports: ReturnType<typeof report>[]; analysisStatus?: "running" | "succeeded" }): Sent[] {
  const sent: Sent[] = [];
  vi.stubGlobal(
    "fetch",
    vi.fn(async (request: Request) => {
      const path = new URL(request.url).pathname;
      const body: unknown = request.method === "GET" ? null : await request.json();
      sent.push({ method: request.method, path, body });
      if (path === "/api/v1/reports" && request.method === "GET") return jsonResponse(200, { items: reports, total: reports.length });
      if (path === "/api/v1/reports" && request.method === "POST") return jsonResponse(201, report(8, (body as { title: string }).title, 1));
      if (path === "/api/v1/reports/5/items") return jsonResponse(201, report(5, "Q3 capacity", 3));
      if (path === "/api/v1/analyses/9") return jsonResponse(200, analysis(analysisStatus));
      if (path === "/api/v1/jobs/4") return jsonResponse(200, makeJob({ id: 4, status: analysisStatus }));
      return jsonResponse(404, { error: { code: "not_found", message: `no ${path}` } });
    }),
  );
  return sent;
}

const posts = (sent: Sent[]) => sent.filter((s) => s.method === "POST");

afterEach(() => {
  vi.unstubAllGlobals();
  window.localStorage.clear();
});

describe("AddToReport", () => {
  it("is hidden for a viewer of the current workspace", async () => {
    window.localStorage.setItem(WORKSPACE_STORAGE_KEY, "2"); // Team B, where Ana is a viewer
    const sent = stubApi({ reports: [] });
    renderWithApp(<AddToReport kind="simulation" sourceId={12} />);
    await waitFor(() => expect(screen.queryByTestId("add-to-report")).not.toBeInTheDocument());
    expect(screen.queryByText("Add to report")).not.toBeInTheDocument();
    expect(sent).toEqual([]);
  });

  it("appends the result to a chosen report and links to it", async () => {
    const sent = stubApi({ reports: [report(5, "Q3 capacity", 2)] });
    renderWithApp(<AddToReport kind="simulation" sourceId={12} />);
    fireEvent.click(screen.getByTestId("add-to-report-open"));
    const select = await screen.findByTestId("add-to-report-select");
    await waitFor(() => expect(select).toHaveValue("5"));
    expect(select).toHaveTextContent("Q3 capacity (2 items)");
    fireEvent.click(screen.getByTestId("add-to-report-submit"));
    const link = await screen.findByTestId("add-to-report-link");
    expect(link).toHaveAttribute("href", "/reports/5");
    expect(screen.getByTestId("add-to-report-done")).toHaveTextContent("Open “Q3 capacity” (3 items)");
    expect(posts(sent)).toEqual([{ method: "POST", path: "/api/v1/reports/5/items", body: { kind: "simulation", source_id: 12, view: null } }]);
  });

  it("creates a new report holding the item in one request", async () => {
    const sent = stubApi({ reports: [] });
    renderWithApp(<AddToReport kind="sweep" sourceId={14} suggestedTitle="Upper sweep" />);
    fireEvent.click(screen.getByTestId("add-to-report-open"));
    const title = await screen.findByTestId("add-to-report-title");
    expect(title).toHaveValue("Upper sweep");
    fireEvent.change(title, { target: { value: "   " } });
    expect(screen.getByTestId("add-to-report-submit")).toBeDisabled();
    fireEvent.change(title, { target: { value: "Sweeps" } });
    fireEvent.click(screen.getByTestId("add-to-report-submit"));
    expect(await screen.findByTestId("add-to-report-link")).toHaveAttribute("href", "/reports/8");
    const [created] = posts(sent);
    expect(created?.path).toBe("/api/v1/reports");
    expect(created?.body).toMatchObject({ title: "Sweeps", workspace_id: 1, items: [{ kind: "sweep", source_id: 14, view: null }] });
  });

  it("waits for an analysis to succeed, then asks which request class", async () => {
    stubApi({ reports: [report(5, "Q3 capacity", 2)], analysisStatus: "running" });
    const { unmount } = renderWithApp(<AddToReport kind="capacity" sourceId={9} />);
    await waitFor(() => expect(screen.queryByTestId("add-to-report")).not.toBeInTheDocument());
    unmount();
    const sent = stubApi({ reports: [report(5, "Q3 capacity", 2)] });
    renderWithApp(<AddToReport kind="capacity" sourceId={9} />);
    fireEvent.click(await screen.findByTestId("add-to-report-open"));
    const view = await screen.findByTestId("add-to-report-view");
    expect(view).toHaveValue("static");
    fireEvent.change(view, { target: { value: "dynamic" } });
    await waitFor(() => expect(screen.getByTestId("add-to-report-select")).toHaveValue("5"));
    fireEvent.click(screen.getByTestId("add-to-report-submit"));
    await screen.findByTestId("add-to-report-link");
    expect(posts(sent)[0]?.body).toEqual({ kind: "capacity", source_id: 9, view: "dynamic" });
  });

  it("shows the server's refusal", async () => {
    vi.stubGlobal(
      "fetch",
      vi.fn((request: Request) => {
        const path = new URL(request.url).pathname;
        if (request.method === "GET") return Promise.resolve(jsonResponse(200, { items: [report(5, "Q3 capacity", 2)], total: 1 }));
        return Promise.resolve(jsonResponse(409, { error: { code: "source_not_ready", message: `simulation 12 has no result yet (${path})` } }));
      }),
    );
    renderWithApp(<AddToReport kind="simulation" sourceId={12} />);
    fireEvent.click(screen.getByTestId("add-to-report-open"));
    await waitFor(() => expect(screen.getByTestId("add-to-report-select")).toHaveValue("5"));
    fireEvent.click(screen.getByTestId("add-to-report-submit"));
    expect(await screen.findByRole("alert")).toHaveTextContent("simulation 12 has no result yet");
  });
});
