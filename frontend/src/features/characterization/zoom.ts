/** The Traffic chart's zoom at full resolution: which window to fetch, and its rows (pure, tested). */
import type { TimeChartConfig } from "../../charts/config";
import { formatCompact, formatCount } from "../../lib/format";
import type { ArrivalView } from "./result";
import { bucketName, bucketRatesPerS, formatChartRate, rateUnit, type ArrivalRow } from "./shaping";

/** Points asked for per zoomed window: about one per pixel of a wide chart. */
export const ZOOM_MAX_POINTS = 2000;

export interface ArrivalWindowQuery {
  start_ms: number;
  end_ms: number;
  every_s: number;
  max_points: number;
  /** Only the requests the page's filters keep. */
  path_prefix?: string;
  status_class?: "1xx" | "2xx" | "3xx" | "4xx" | "5xx";
  path_pattern?: string;
  request_class?: string;
  host?: string;
  client?: string;
}

/** The page's filters as the arrivals route reads them. */
export type ArrivalFilter = Omit<ArrivalWindowQuery, "start_ms" | "end_ms" | "every_s" | "max_points">;

export interface ArrivalWindowData {
  every_s: number;
  t_ms: number[];
  count: number[];
  /** Each bucket's count over the seconds of it the log (and the window) covers. */
  rate_per_s?: number[];
  buckets: number;
  downsampled: boolean;
}

/**
 * The window to fetch for a zoom from row `start` to row `end` (inclusive) of the overview:
 * from the first row's bucket to the end of the last row's. Null when there is nothing to
 * fetch: no zoom, or the overview already holds every bucket (not downsampled).
 */
export function zoomWindow(
  view: Pick<ArrivalView, "every_s" | "downsampled" | "t_ms">,
  range: { start: number; end: number } | null,
): ArrivalWindowQuery | null {
  if (range === null || !view.downsampled) return null;
  const first = view.t_ms[Math.max(0, Math.min(range.start, range.end))];
  const last = view.t_ms[Math.min(view.t_ms.length - 1, Math.max(range.start, range.end))];
  if (first === undefined || last === undefined) return null;
  return { start_ms: first, end_ms: last + view.every_s * 1000, every_s: view.every_s, max_points: ZOOM_MAX_POINTS };
}

/** One row per fetched bucket: its start and its rate in `rateUnit` (the window has totals, not classes). */
export function windowRows(data: Pick<ArrivalWindowData, "every_s" | "t_ms" | "count" | "rate_per_s">): ArrivalRow[] {
  const { perS } = rateUnit(data.every_s);
  const rates = bucketRatesPerS(data);
  return data.t_ms.map((t, i) => ({ t, total: (rates[i] ?? 0) * perS }));
}

export function windowChartConfig(data: ArrivalWindowData): TimeChartConfig<ArrivalRow> {
  const bucket = bucketName(data.every_s);
  const unit = rateUnit(data.every_s).label;
  const detail = data.downsampled
    ? `${formatCount(data.t_ms.length)} of the window's ${formatCount(data.buckets)} buckets (LTTB keeps the peaks)`
    : `all ${formatCount(data.buckets)} buckets of the window`;
  return {
    id: "chart-arrivals",
    title: `Request rate per ${bucket}, zoomed`,
    description: `Requests per ${unit === "req/s" ? "second" : "minute"} in each ${bucket} bucket, over the seconds of it the log covers, counted from the request table: ${detail}. All classes together. Times in UTC.`,
    kind: "area",
    time: (r) => r.t,
    unit: (v) => formatChartRate(v, unit),
    axisUnit: formatCompact,
    yLabel: unit,
    series: [{ key: "total", label: "All requests", color: "chart-requests" }],
  };
}

/** The overview rows from the one holding `fromMs` to the one holding the instant before
 * `toMs` (null bounds: the first / last row); null when that is every row or the range
 * misses the rows. */
export function indexRange(tMs: readonly number[], everyS: number, fromMs: number | null, toMs: number | null): { start: number; end: number } | null {
  if (tMs.length === 0 || (fromMs === null && toMs === null)) return null;
  const last = tMs.length - 1;
  let start = 0;
  while (fromMs !== null && start < last && (tMs[start + 1] ?? Infinity) <= fromMs) start += 1;
  let end = last;
  while (toMs !== null && end > start && (tMs[end] ?? -Infinity) >= toMs) end -= 1;
  const missed = (toMs !== null && (tMs[0] ?? 0) >= toMs) || (fromMs !== null && (tMs[last] ?? 0) + everyS * 1000 <= fromMs);
  if (missed || (start === 0 && end === last)) return null;
  return { start, end };
}
