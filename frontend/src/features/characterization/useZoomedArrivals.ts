import { useMemo } from "react";
import type { TimeChartConfig } from "../../charts/config";
import { useArrivalWindow } from "./queries";
import type { ArrivalView } from "./result";
import { arrivalChartConfig, arrivalRows, zoomRows, type ArrivalRow } from "./shaping";
import { useDebounced } from "../../lib/useDebounced";
import { windowChartConfig, windowRows, zoomWindow, type ArrivalFilter } from "./zoom";

export const ZOOM_SETTLE_MS = 250;

export interface ZoomedArrivals {
  /** The overview's rows (for the navigator), and what the chart draws. */
  overview: ArrivalRow[];
  rows: ArrivalRow[];
  config: TimeChartConfig<ArrivalRow>;
  /** True while the zoomed window is being fetched: the chart shows the overview's slice meanwhile. */
  loading: boolean;
  fullResolution: boolean;
  /** The fetched window had more buckets than points: LTTB-thinned, though far finer than the overview. */
  windowThinned: boolean;
  error: Error | null;
}

/**
 * The chart's rows for a zoom: the overview's slice at once, then, when the overview is
 * downsampled and a dataset is known, the window's every bucket fetched from the API (under
 * the filters, which the overview, the filters' own characterization, already follows).
 * No zoom: the overview (no request).
 */
const NO_FILTER: ArrivalFilter = {};

export function useZoomedArrivals(
  datasetId: number | null,
  view: ArrivalView,
  range: { start: number; end: number } | null,
  filter: ArrivalFilter = NO_FILTER,
): ZoomedArrivals {
  const overview = useMemo(() => arrivalRows(view), [view]);
  const overviewConfig = useMemo(() => arrivalChartConfig(view), [view]);
  const filterKey = JSON.stringify(filter);
  const window = useMemo(() => {
    const w = datasetId === null ? null : zoomWindow(view, range);
    return w === null ? null : { ...w, ...(JSON.parse(filterKey) as ArrivalFilter) };
  }, [datasetId, view, range, filterKey]);
  const settled = useDebounced(window, ZOOM_SETTLE_MS);
  const query = useArrivalWindow(datasetId, window === null ? null : settled);
  const data = window !== null && settled === window ? query.data : undefined;
  const fetched = useMemo(() => (data === undefined ? null : { rows: windowRows(data), config: windowChartConfig(data) }), [data]);
  const sliced = useMemo(() => zoomRows(overview, range), [overview, range]);
  return {
    overview,
    rows: fetched?.rows ?? sliced,
    config: fetched?.config ?? overviewConfig,
    loading: window !== null && fetched === null && query.error === null,
    fullResolution: fetched !== null,
    windowThinned: data?.downsampled ?? false,
    error: window !== null ? query.error : null,
  };
}
