import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { RequestRow } from "../../api/models";
import { makeDataset, makeJob, makeSummary } from "../../test/fixtures";
import { jsonResponse, renderWithApp } from "../../test/render";
import { DatasetDetail } from "./DatasetDetail";

const ready = makeDataset({ status: "ready", format: "combined", job: makeJob({ status: "succeeded", progress: 1 }) });
const FROM = Date.UTC(2024, 2, 1, 10, 0);
const TO = FROM + 3_600_000;

function row(i: number): RequestRow {
  return { row: i, ts: new Date(FROM + i * 1000).toISOString(), method: "GET", path: `/api/${i}`, query: null, status: 503, latency_s: 0.25, bytes: 10, client: "10.0.0.1" };
}

/** The API: the summary counts what its query asks for; requests come 2 a page of 3. */
function stubApi() {
  const calls: URL[] = [];
  vi.stubGlobal(
    "fetch",
    vi.fn((request: Request) => {
      const url = new URL(request.url);
      calls.push(url);
      if (url.pathname === "/api/v1/datasets/3") return Promise.resolve(jsonResponse(200, ready));
      if (url.pathname === "/api/v1/datasets/3/summary") {
        const sliced = url.searchParams.has("from");
        return Promise.resolve(jsonResponse(200, makeSummary({ request_count: sliced ? 42 : 10_000 })));
      }
      if (url.pathname === "/api/v1/datasets/3/requests") {
        const first = Number(url.searchParams.get("page_token") ?? "0");
        const items = [row(first), row(first + 1)].filter((r) => r.row < 3);
        const next = first + 2 < 3 ? String(first + 2) : null;
        return Promise.resolve(jsonResponse(200, { dataset_id: 3, items, total: 3, next_page_token: next }));
      }
      return Promise.resolve(jsonResponse(404, { error: { code: "not_found", message: "no" } }));
    }),
  );
  return calls;
}

afterEach(() => vi.unstubAllGlobals());

describe("the dataset page's slice", () => {
  it("asks the API for the URL's range and filters, and the stat cards show that slice", async () => {
    const calls = stubApi();
    const path = `/datasets/3?from=${new Date(FROM).toISOString()}&to=${new Date(TO).toISOString()}&path=/api/&status=5xx`;
    renderWithApp(<DatasetDetail datasetId={3} />, { path, route: "/datasets/:id" });
    expect(await screen.findByTestId("stat-requests")).toHaveTextContent("42");
    expect(screen.getByTestId("stat-requests")).toHaveTextContent("in the range and filters");
    const summary = calls.find((u) => u.pathname.endsWith("/summary"));
    expect(summary?.searchParams.get("from")).toBe(String(FROM));
    expect(summary?.searchParams.get("to")).toBe(String(TO));
    expect(summary?.searchParams.get("path_prefix")).toBe("/api/");
    expect(summary?.searchParams.get("status_class")).toBe("5xx");
    expect(screen.getByTestId("slice-range")).toHaveTextContent("(1 h)");
  });

  it("resets the range to the whole log, keeping the filters", async () => {
    stubApi();
    const { router } = renderWithApp(<DatasetDetail datasetId={3} />, { path: `/datasets/3?tab=latency&from=${FROM}&to=${TO}&status=5xx`, route: "/datasets/:id" });
    fireEvent.click(await screen.findByTestId("slice-reset"));
    await waitFor(() => expect(router.state.location.search).toBe("?tab=latency&status=5xx"));
  });

  it("lists the slice's requests a page at a time", async () => {
    const calls = stubApi();
    renderWithApp(<DatasetDetail datasetId={3} />, { path: "/datasets/3?status=5xx", route: "/datasets/:id" });
    fireEvent.click(await screen.findByTestId("slice-list"));
    const drawer = await screen.findByTestId("requests-drawer");
    expect(await within(drawer).findByTestId("requests-count")).toHaveTextContent("1–2 of 3 requests");
    fireEvent.click(within(drawer).getByTestId("requests-next"));
    await waitFor(() => expect(within(drawer).getByTestId("requests-count")).toHaveTextContent("3–3 of 3 requests"));
    expect(within(drawer).getByText("/api/2")).toBeInTheDocument();
    const asked = calls.filter((u) => u.pathname.endsWith("/requests"));
    expect(asked.every((u) => u.searchParams.get("status_class") === "5xx")).toBe(true);
    expect(asked.at(-1)?.searchParams.get("page_token")).toBe("2");
  });

  it.each(["traffic", "latency"])("characterizes the filters alone on the %s tab (the range is a zoom into it), the whole log without filters", async (tab) => {
    const posted: unknown[] = [];
    const running = { id: 9, dataset_id: 3, slice: null, job: makeJob({ id: 11, status: "running", progress: 0.4 }), result: null };
    vi.stubGlobal(
      "fetch",
      vi.fn(async (request: Request) => {
        const url = new URL(request.url);
        if (url.pathname === "/api/v1/datasets/3") return jsonResponse(200, ready);
        if (url.pathname === "/api/v1/datasets/3/characterizations" && request.method === "POST") {
          posted.push(await request.json().catch(() => null));
          return jsonResponse(202, running);
        }
        return jsonResponse(200, makeSummary());
      }),
    );
    const filtered = renderWithApp(<DatasetDetail datasetId={3} />, { path: `/datasets/3?tab=${tab}&from=${FROM}&to=${TO}&status=5xx&host=a.example`, route: "/datasets/:id" });
    expect(await screen.findByTestId("characterization-progress")).toBeInTheDocument();
    expect(posted).toEqual([{ slice: { status_class: "5xx", host: "a.example" } }]);
    filtered.unmount();
    renderWithApp(<DatasetDetail datasetId={3} />, { path: `/datasets/3?tab=${tab}&from=${FROM}&to=${TO}`, route: "/datasets/:id" });
    await waitFor(() => expect(posted).toHaveLength(2));
    expect(posted[1]).toBeNull(); // the whole log's, under the stored rules
  });
});
