/** The slice of a dataset every tab shows, kept in the URL's search params (pure, tested):
 * `from` and `to` (ISO times, UTC), `res` (a resolution in seconds), `path` (a path prefix)
 * and `status` (a status class). */

export const STATUS_CLASSES = ["1xx", "2xx", "3xx", "4xx", "5xx"] as const;
export type StatusClass = (typeof STATUS_CLASSES)[number];

export interface DatasetSlice {
  /** Epoch ms; null: the log's first request. */
  from: number | null;
  /** Epoch ms, excluded; null: after the log's last request. */
  to: number | null;
  /** Seconds per bucket; null: each view's default. */
  res: number | null;
  path: string;
  status: StatusClass | null;
}

export const WHOLE: DatasetSlice = { from: null, to: null, res: null, path: "", status: null };

const KEYS = ["from", "to", "res", "path", "status"] as const;

function time(value: string | null): number | null {
  if (value === null || value === "") return null;
  const ms = /^\d+$/.test(value) ? Number(value) : Date.parse(value);
  return Number.isFinite(ms) ? ms : null;
}

/** The slice the search params name; unreadable values count as absent. */
export function sliceFromSearch(search: URLSearchParams): DatasetSlice {
  let from = time(search.get("from"));
  let to = time(search.get("to"));
  if (from !== null && to !== null && to <= from) [from, to] = [null, null];
  const res = Number(search.get("res") ?? "");
  const status = search.get("status");
  return {
    from,
    to,
    res: Number.isInteger(res) && res > 0 ? res : null,
    path: search.get("path") ?? "",
    status: STATUS_CLASSES.find((c) => c === status) ?? null,
  };
}

/** An ISO time without milliseconds when it has none ("2024-03-01T10:02:00Z"). */
export function isoTime(ms: number): string {
  return new Date(ms).toISOString().replace(".000Z", "Z");
}

/** `search` with the slice's params replaced (the others, such as the tab, kept). */
export function sliceToSearch(search: URLSearchParams, slice: DatasetSlice): URLSearchParams {
  const next = new URLSearchParams(search);
  for (const key of KEYS) next.delete(key);
  if (slice.from !== null) next.set("from", isoTime(slice.from));
  if (slice.to !== null) next.set("to", isoTime(slice.to));
  if (slice.res !== null) next.set("res", String(slice.res));
  if (slice.path !== "") next.set("path", slice.path);
  if (slice.status !== null) next.set("status", slice.status);
  return next;
}

export function hasRange(slice: DatasetSlice): boolean {
  return slice.from !== null || slice.to !== null;
}

export function hasFilter(slice: DatasetSlice): boolean {
  return slice.path !== "" || slice.status !== null;
}

/** The API's query for the slice (the summary, the requests, the arrivals' filters). */
export interface SliceQuery {
  from?: number;
  to?: number;
  path_prefix?: string;
  status_class?: StatusClass;
}

export function sliceQuery(slice: DatasetSlice): SliceQuery {
  return {
    ...(slice.from === null ? {} : { from: slice.from }),
    ...(slice.to === null ? {} : { to: slice.to }),
    ...(slice.path === "" ? {} : { path_prefix: slice.path }),
    ...(slice.status === null ? {} : { status_class: slice.status }),
  };
}

/** A zoom from one bucket start to another, both included: [first, last + bucket). */
export function zoomRange(aMs: number, bMs: number, bucketMs: number): { from: number; to: number } {
  return { from: Math.min(aMs, bMs), to: Math.max(aMs, bMs) + bucketMs };
}
