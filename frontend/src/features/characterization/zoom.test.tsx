import { QueryClientProvider } from "@tanstack/react-query";
import { renderHook, waitFor } from "@testing-library/react";
import type { ReactNode } from "react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { validateConfig } from "../../charts/config";
import { jsonResponse, testQueryClient } from "../../test/render";
import type { ArrivalView } from "./result";
import type { IndexRange } from "./RangeNavigator";
import { useZoomedArrivals, type ZoomedArrivals } from "./useZoomedArrivals";
import { indexRange, windowChartConfig, windowRows, ZOOM_MAX_POINTS, zoomWindow } from "./zoom";

const T0 = Date.UTC(2015, 4, 17, 10, 0);

// a 1 s overview LTTB-thinned to 4 of its 3600 buckets
const view: ArrivalView = {
  every_s: 1,
  stats: { every_s: 1, buckets: 3600, total: 40, peak: 9, trough: 0, mean: 0.01, peak_to_mean: 900 },
  downsampled: true,
  t_ms: [T0, T0 + 1000_000, T0 + 2000_000, T0 + 3599_000],
  count: [3, 9, 0, 1],
  by_class: { dynamic: [1, 4, 0, 1], static: [2, 5, 0, 0] },
};

// what the API answers for [T0 + 1000 s, T0 + 2001 s): every bucket (a few shown)
const fetched = { dataset_id: 3, every_s: 1, t_ms: [T0 + 1000_000, T0 + 1001_000, T0 + 1002_000], count: [9, 0, 4], rate_per_s: [9, 0, 4], buckets: 3, downsampled: false };

afterEach(() => vi.unstubAllGlobals());

function stubFetch(urls: string[]) {
  vi.stubGlobal(
    "fetch",
    vi.fn((request: Request) => {
      urls.push(request.url);
      const path = new URL(request.url).pathname;
      if (path === "/api/v1/datasets/3/arrivals") return Promise.resolve(jsonResponse(200, fetched));
      return Promise.resolve(jsonResponse(404, { error: { code: "not_found", message: path } }));
    }),
  );
}

function wrapper({ children }: { children: ReactNode }) {
  return <QueryClientProvider client={testQueryClient()}>{children}</QueryClientProvider>;
}

describe("the zoom window", () => {
  it("runs from the first zoomed row's bucket to the end of the last one's", () => {
    expect(zoomWindow(view, { start: 1, end: 2 })).toEqual({ start_ms: T0 + 1000_000, end_ms: T0 + 2001_000, every_s: 1, max_points: ZOOM_MAX_POINTS });
    expect(zoomWindow(view, { start: 2, end: 1 })).toEqual(zoomWindow(view, { start: 1, end: 2 }));
  });

  it("is not fetched without a zoom, nor when the overview already holds every bucket", () => {
    expect(zoomWindow(view, null)).toBeNull();
    expect(zoomWindow({ ...view, downsampled: false }, { start: 1, end: 2 })).toBeNull();
  });

  it("draws one row per fetched bucket in a valid single-series chart that says how much it shows", () => {
    expect(windowRows(fetched)).toEqual([
      { t: T0 + 1000_000, total: 9 },
      { t: T0 + 1001_000, total: 0 },
      { t: T0 + 1002_000, total: 4 },
    ]);
    const config = windowChartConfig(fetched);
    expect(validateConfig(config)).toEqual([]);
    expect(config.description).toContain("all 3 buckets");
    expect(config.yLabel).toBe("req/s");
    expect(windowChartConfig({ ...fetched, buckets: 5000, downsampled: true }).description).toContain("3 of the window's 5,000 buckets");
  });
});

describe("the zoomed chart's rates", () => {
  it("plots the window's rates per minute: the bucket the log ends in is no drop", () => {
    // a steady 2 req/s; the log ends 20 s into the window's last minute
    const minutes = { every_s: 60, t_ms: [T0, T0 + 60_000, T0 + 120_000], count: [120, 120, 40], rate_per_s: [2, 2, 2], buckets: 3, downsampled: false };
    expect(windowRows(minutes).map((r) => r.total)).toEqual([120, 120, 120]);
    const config = windowChartConfig(minutes);
    expect(validateConfig(config)).toEqual([]);
    expect(config.yLabel).toBe("req/min");
    expect(config.unit(120)).toBe("120 req/min");
  });

  it("falls back to count over the bucket's width for an answer without rates", () => {
    expect(windowRows({ every_s: 10, t_ms: [T0], count: [25] })).toEqual([{ t: T0, total: 2.5 }]);
  });
});

describe("useZoomedArrivals", () => {
  it("shows the overview's slice while loading, then the fetched window; zooming out returns to the overview", async () => {
    const urls: string[] = [];
    stubFetch(urls);
    const { result, rerender } = renderHook<ZoomedArrivals, { range: IndexRange | null }>(({ range }) => useZoomedArrivals(3, view, range), {
      wrapper,
      initialProps: { range: { start: 1, end: 2 } },
    });
    expect(result.current.loading).toBe(true);
    expect(result.current.rows.map((r) => r.total)).toEqual([9, 0]);
    await waitFor(() => expect(result.current.fullResolution).toBe(true));
    expect(result.current.loading).toBe(false);
    expect(result.current.rows).toEqual(windowRows(fetched));
    expect(result.current.windowThinned).toBe(false);
    expect(result.current.config.title).toBe("Request rate per 1 s, zoomed");
    expect(urls).toHaveLength(1);
    const query = new URL(urls[0] ?? "").searchParams;
    expect(Object.fromEntries(query)).toEqual({ start_ms: String(T0 + 1000_000), end_ms: String(T0 + 2001_000), every_s: "1", max_points: String(ZOOM_MAX_POINTS) });

    rerender({ range: null });
    expect(result.current.loading).toBe(false);
    expect(result.current.fullResolution).toBe(false);
    expect(result.current.rows).toHaveLength(4);
    expect(result.current.config.title).toBe("Request rate per 1 s");
    expect(urls).toHaveLength(1);
  });

  it("asks nothing of the API when the overview is complete or no dataset is known", async () => {
    const urls: string[] = [];
    stubFetch(urls);
    const complete = renderHook(() => useZoomedArrivals(3, { ...view, downsampled: false }, { start: 1, end: 2 }), { wrapper });
    const orphan = renderHook(() => useZoomedArrivals(null, view, { start: 1, end: 2 }), { wrapper });
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(urls).toEqual([]);
    for (const r of [complete.result, orphan.result]) {
      expect(r.current.loading).toBe(false);
      expect(r.current.rows.map((row) => row.total)).toEqual([9, 0]);
    }
  });
});

describe("the URL's range as overview rows", () => {
  const t = [0, 60_000, 120_000, 180_000, 240_000];
  it("covers the rows holding the range, the end excluded", () => {
    expect(indexRange(t, 60, 60_000, 180_000)).toEqual({ start: 1, end: 2 });
    expect(indexRange(t, 60, 90_000, 180_001)).toEqual({ start: 1, end: 3 });
  });
  it("is null for the whole series or no range", () => {
    expect(indexRange(t, 60, null, null)).toBeNull();
    expect(indexRange(t, 60, -5, 400_000)).toBeNull();
  });
  it("is null for a range off the series", () => {
    expect(indexRange(t, 60, 900_000, 960_000)).toBeNull();
  });
});
