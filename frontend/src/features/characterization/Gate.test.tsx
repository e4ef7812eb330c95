import { screen, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { makeJob } from "../../test/fixtures";
import { jsonResponse, renderWithApp } from "../../test/render";
import { actAsViewer } from "../workspaces/viewerTest";
import { CharacterizationGate } from "./Gate";

const running = { id: 9, dataset_id: 3, job: makeJob({ id: 11, status: "running", progress: 0.4, stage: "characterizing" }), result: null };

afterEach(() => {
  vi.unstubAllGlobals();
  window.localStorage.clear();
});

function stub(current: { status: number; body: unknown }, created: { status: number; body: unknown }, calls: string[]) {
  vi.stubGlobal(
    "fetch",
    vi.fn((request: Request) => {
      const path = new URL(request.url).pathname;
      calls.push(`${request.method} ${path}`);
      if (path === "/api/v1/datasets/3/characterization") return Promise.resolve(jsonResponse(current.status, current.body));
      if (path === "/api/v1/datasets/3/characterizations") return Promise.resolve(jsonResponse(created.status, created.body));
      return Promise.resolve(jsonResponse(404, { error: { code: "not_found", message: path } }));
    }),
  );
}

const notFound = { status: 404, body: { error: { code: "not_found", message: "none yet" } } };

describe("CharacterizationGate", () => {
  it("starts the characterization on the first visit, with no 404 on the way, and shows its progress", async () => {
    const calls: string[] = [];
    stub(notFound, { status: 202, body: running }, calls);
    renderWithApp(<CharacterizationGate datasetId={3}>{() => <p>charts</p>}</CharacterizationGate>);
    expect(await screen.findByTestId("job-progress")).toHaveAttribute("aria-valuenow", "40");
    expect(calls).toEqual(["POST /api/v1/datasets/3/characterizations"]);
    expect(screen.queryByText("charts")).not.toBeInTheDocument();
  });

  it("starts it for a viewer too (derived under the stored rules): pending, never a 404", async () => {
    actAsViewer();
    const calls: string[] = [];
    stub(notFound, { status: 202, body: running }, calls);
    renderWithApp(<CharacterizationGate datasetId={3}>{() => <p>charts</p>}</CharacterizationGate>);
    expect(await screen.findByTestId("job-progress")).toHaveAttribute("aria-valuenow", "40");
    expect(calls).toEqual(["POST /api/v1/datasets/3/characterizations"]);
  });

  it("starts a slice's characterization for a viewer, with the slice, not 'not characterized yet'", async () => {
    actAsViewer();
    const bodies: unknown[] = [];
    vi.stubGlobal(
      "fetch",
      vi.fn(async (request: Request) => {
        bodies.push(`${request.method} ${new URL(request.url).pathname}`, request.method === "POST" ? await request.json() : null);
        return jsonResponse(202, running);
      }),
    );
    const slice = { from_ms: 1000, to_ms: 2000, host: "shop.example" };
    renderWithApp(<CharacterizationGate datasetId={3} slice={slice}>{() => <p>charts</p>}</CharacterizationGate>);
    expect(await screen.findByTestId("characterization-progress")).toBeInTheDocument();
    expect(bodies.slice(0, 2)).toEqual(["POST /api/v1/datasets/3/characterizations", { slice }]);
    expect(screen.queryByTestId("characterization-missing")).toBeNull();
  });

  it("tells someone the API refuses (403) whom to ask", async () => {
    const calls: string[] = [];
    stub(notFound, { status: 403, body: { error: { code: "forbidden", message: "needs editor" } } }, calls);
    renderWithApp(<CharacterizationGate datasetId={3}>{() => <p>charts</p>}</CharacterizationGate>);
    expect(await screen.findByTestId("characterization-missing")).toHaveTextContent("Ask an editor");
  });

  it("shows the job's error when the characterization failed", async () => {
    const failed = { ...running, job: makeJob({ status: "failed", error_code: "unusable_data", error_message: "no requests" }) };
    stub(notFound, { status: 200, body: failed }, []);
    renderWithApp(<CharacterizationGate datasetId={3}>{() => <p>charts</p>}</CharacterizationGate>);
    await waitFor(() => expect(screen.getByRole("alert")).toHaveTextContent("no requests"));
  });
});

describe("CharacterizationGate of a slice that keeps nothing", () => {
  it("says there is nothing to chart, not a failure", async () => {
    const empty = { ...running, job: makeJob({ status: "failed", error_code: "empty_slice", error_message: "the range and filters keep no requests" }) };
    vi.stubGlobal("fetch", vi.fn(() => Promise.resolve(jsonResponse(202, empty))));
    renderWithApp(<CharacterizationGate datasetId={3} slice={{ host: "nowhere.example" }}>{() => <p>charts</p>}</CharacterizationGate>);
    expect(await screen.findByTestId("slice-empty")).toHaveTextContent("The filters keep no request of this log");
    expect(screen.queryByRole("alert")).toBeNull();
    expect(screen.queryByText("charts")).toBeNull();
  });
});
