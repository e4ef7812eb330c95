import { screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { jsonResponse, renderWithApp } from "../../test/render";
import { actAsViewer } from "../workspaces/viewerTest";
import { ReportsPage } from "./ReportsPage";

const listed = { id: 5, workspace_id: 2, title: "Q3 capacity", visibility: "workspace", item_count: 2, created_by: null, created_at: "2026-11-01T00:00:00Z", updated_at: "2026-11-01T00:00:00Z" };

afterEach(() => {
  vi.unstubAllGlobals();
  window.localStorage.clear();
});

describe("ReportsPage", () => {
  it("lets an owner create a report", async () => {
    vi.stubGlobal("fetch", vi.fn(() => Promise.resolve(jsonResponse(200, { items: [listed], total: 1 }))));
    renderWithApp(<ReportsPage />);
    expect(await screen.findByRole("link", { name: "Q3 capacity" })).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Create report" })).toBeInTheDocument();
  });

  it("shows a viewer the reports without the new-report form", async () => {
    vi.stubGlobal("fetch", vi.fn(() => Promise.resolve(jsonResponse(200, { items: [listed], total: 1 }))));
    actAsViewer();
    renderWithApp(<ReportsPage />);
    expect(await screen.findByRole("link", { name: "Q3 capacity" })).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Create report" })).not.toBeInTheDocument();
    expect(screen.queryByLabelText("Title")).not.toBeInTheDocument();
  });
});
