import { fireEvent, screen, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { jsonResponse, renderWithApp } from "../../test/render";
import { ReportEditor } from "./ReportEditor";
import type { Report } from "./types";

const report: Report = {
  id: 5,
  workspace_id: 1,
  title: "Q3 capacity",
  visibility: "workspace",
  item_count: 0,
  created_by: null,
  created_at: "2026-11-01T00:00:00Z",
  updated_at: "2026-11-01T00:00:00Z",
  notes_md: "",
  notes_html: "",
  can_edit: true,
  items: [],
};

function stubApi(patches: unknown[]) {
  vi.stubGlobal(
    "fetch",
    vi.fn(async (request: Request) => {
      const path = new URL(request.url).pathname;
      if (request.method === "PATCH" && path === "/api/v1/reports/5") {
        const body = (await request.json()) as { title: string; notes_md: string };
        patches.push(body);
        return jsonResponse(200, { ...report, ...body });
      }
      if (path === "/api/v1/reports/notes-preview") return jsonResponse(200, { notes_html: "" });
      return jsonResponse(404, { error: { code: "not_found", message: `no ${path}` } });
    }),
  );
}

afterEach(() => vi.unstubAllGlobals());

describe("ReportEditor's title and notes", () => {
  it("says Saved. only after a save, and Unsaved changes. while edited", async () => {
    const patches: unknown[] = [];
    stubApi(patches);
    renderWithApp(<ReportEditor report={report} />);
    expect(screen.queryByText("Saved.")).not.toBeInTheDocument();
    fireEvent.change(screen.getByLabelText("Title"), { target: { value: "Q4 capacity" } });
    expect(screen.getByText("Unsaved changes.")).toBeInTheDocument();
    fireEvent.click(screen.getByRole("button", { name: "Save title and notes" }));
    await waitFor(() => expect(patches).toEqual([{ title: "Q4 capacity", notes_md: "" }]));
  });
});
