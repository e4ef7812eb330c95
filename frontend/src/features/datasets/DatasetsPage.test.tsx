import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { makeDataset } from "../../test/fixtures";
import { jsonResponse, renderWithApp } from "../../test/render";
import { actAsViewer } from "../workspaces/viewerTest";
import { DatasetsPage } from "./DatasetsPage";

function stubEmpty() {
  vi.stubGlobal("fetch", vi.fn(() => Promise.resolve(jsonResponse(200, { items: [], total: 0 }))));
}

afterEach(() => {
  vi.unstubAllGlobals();
  window.localStorage.clear();
});

describe("DatasetsPage", () => {
  it("offers an owner to upload a log", async () => {
    stubEmpty();
    renderWithApp(<DatasetsPage />);
    await screen.findByTestId("datasets-empty");
    expect(screen.getAllByRole("link", { name: "Upload a log" })).toHaveLength(2);
  });

  it("offers a viewer no upload, and says who uploads", async () => {
    stubEmpty();
    actAsViewer();
    renderWithApp(<DatasetsPage />);
    expect(await screen.findByTestId("datasets-empty")).toHaveTextContent("Editors of this workspace upload its logs");
    expect(screen.queryByRole("link", { name: "Upload a log" })).not.toBeInTheDocument();
  });

  it("shows requests, span and latency, a synthetic label, and a dash where not ingested yet", async () => {
    stubList([]);
    renderWithApp(<DatasetsPage />);
    const table = await screen.findByTestId("datasets-table");
    const shop = within(table).getByRole("row", { name: /shop\.log/ });
    expect(shop).toHaveTextContent("12,847");
    expect(shop).toHaveTextContent("1 h");
    expect(shop).toHaveTextContent("yes");
    const mm4 = within(table).getByRole("row", { name: /mm4\.log/ });
    expect(mm4).toHaveTextContent("synthetic");
    expect(mm4).toHaveTextContent("not recorded");
    const waiting = within(table).getByRole("row", { name: /waiting\.log/ });
    expect(within(waiting).getAllByTitle("Known once the log is ingested")).toHaveLength(3);
  });

  it("shows a receiver's bytes as received and no size for a Prometheus source's intervals", async () => {
    stubList([]);
    renderWithApp(<DatasetsPage />);
    const table = await screen.findByTestId("datasets-table");
    expect(within(table).getByRole("row", { name: /edge/ })).toHaveTextContent("4.2 MB received");
    const prometheus = within(table).getByRole("row", { name: /checkout/ });
    expect(prometheus).toHaveTextContent("no file");
    expect(prometheus).not.toHaveTextContent("0 B");
  });

  it("searches by name and sorts, asking the server", async () => {
    const asked = stubList([]);
    renderWithApp(<DatasetsPage />);
    await screen.findByTestId("datasets-table");
    fireEvent.change(screen.getByLabelText("Search by name"), { target: { value: "shop" } });
    fireEvent.change(screen.getByLabelText("Sort"), { target: { value: "requests" } });
    await waitFor(() => expect(asked.at(-1)).toEqual(expect.objectContaining({ q: "shop", sort: "requests" })));
  });

  it("renames a dataset and deletes one after asking", async () => {
    const sent: string[] = [];
    stubList(sent);
    const confirm = vi.spyOn(window, "confirm").mockReturnValue(true);
    renderWithApp(<DatasetsPage />);
    fireEvent.click(await screen.findByRole("button", { name: "Rename shop.log" }));
    fireEvent.change(screen.getByLabelText("New name"), { target: { value: "checkout.log" } });
    fireEvent.click(screen.getByRole("button", { name: "Save" }));
    await waitFor(() => expect(sent).toContain('PATCH /api/v1/datasets/7 {"name":"checkout.log"}'));
    fireEvent.click(screen.getByRole("button", { name: "Delete mm4.log" }));
    expect(confirm.mock.calls[0]?.[0]).toContain("cannot be undone");
    await waitFor(() => expect(sent).toContain("DELETE /api/v1/datasets/8 "));
  });

  it("offers a viewer neither rename nor delete", async () => {
    actAsViewer();
    stubList([]);
    renderWithApp(<DatasetsPage />);
    await screen.findByTestId("datasets-table");
    expect(screen.queryByRole("button", { name: /Rename|Delete/ })).not.toBeInTheDocument();
  });
});

const LISTED = [
  makeDataset({ id: 7, name: "shop.log", status: "ready", job: null, request_count: 12847, span_s: 3600, first_request_at: "2026-03-02T09:00:00Z", has_latency: true }),
  makeDataset({ id: 8, name: "mm4.log", status: "ready", job: null, request_count: 500, span_s: 60, has_latency: false, synthetic: true }),
  makeDataset({ id: 9, name: "waiting.log", status: "uploaded", job: null, request_count: null, span_s: null, has_latency: null }),
  makeDataset({ id: 10, name: "edge", status: "ready", job: null, size_bytes: 4_200_000, source: { kind: "stream", live: true, refreshed_at: "2026-03-02T10:00:00Z" } }),
  makeDataset({ id: 11, name: "checkout", status: "ready", job: null, format: "prometheus", size_bytes: 0, source: { kind: "prometheus", source_id: 3, live: true, refreshed_at: "2026-03-02T10:00:00Z" } }),
];

/** Answers the list (recording each list query) and records every change sent. */
function stubList(sent: string[]): Record<string, string>[] {
  const asked: Record<string, string>[] = [];
  vi.stubGlobal(
    "fetch",
    vi.fn(async (request: Request) => {
      const url = new URL(request.url);
      if (request.method === "GET" && url.pathname === "/api/v1/datasets") {
        asked.push(Object.fromEntries(url.searchParams));
        return jsonResponse(200, { items: LISTED, total: LISTED.length });
      }
      sent.push(`${request.method} ${url.pathname} ${request.method === "PATCH" ? await request.text() : ""}`);
      if (request.method === "PATCH") return jsonResponse(200, { ...LISTED[0], name: "checkout.log" });
      return jsonResponse(204, null);
    }),
  );
  return asked;
}
