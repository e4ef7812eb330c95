/** The slice of a dataset every tab shows, kept in the URL's search params (pure, tested):
 * `from` and `to` (ISO times, UTC), `res` (a resolution in seconds), `path` (a path prefix),
 * `pattern` (a path glob, or a regular expression after a ~), `status` (a status class),
 * `class` (the log's request class), `host` and `client`. */

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
  /** A path glob (* within a segment, ** across), or a regular expression after a ~. */
  pattern: string;
  /** The log's request class. */
  cls: string;
  host: string;
  client: string;
}

export const WHOLE: DatasetSlice = { from: null, to: null, res: null, path: "", status: null, pattern: "", cls: "", host: "", client: "" };

/** The text filters and their URL keys. */
export const TEXT_FILTERS = [
  { field: "pattern", key: "pattern", label: "Path pattern", placeholder: "/api/*/items or ~^/api/v[12]/" },
  { field: "cls", key: "class", label: "Request class", placeholder: "reads" },
  { field: "host", key: "host", label: "Host", placeholder: "shop.example" },
  { field: "client", key: "client", label: "Client", placeholder: "10.0.0.7" },
] as const;

export type TextFilter = (typeof TEXT_FILTERS)[number]["field"];

const KEYS = ["from", "to", "res", "path", "status", ...TEXT_FILTERS.map((f) => f.key)] as const;

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
    pattern: search.get("pattern") ?? "",
    cls: search.get("class") ?? "",
    host: search.get("host") ?? "",
    client: search.get("client") ?? "",
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
  for (const f of TEXT_FILTERS) if (slice[f.field] !== "") next.set(f.key, slice[f.field]);
  return next;
}

export function hasRange(slice: DatasetSlice): boolean {
  return slice.from !== null || slice.to !== null;
}

export function hasFilter(slice: DatasetSlice): boolean {
  return slice.path !== "" || slice.status !== null || TEXT_FILTERS.some((f) => slice[f.field] !== "");
}

/** No range and no filter: every tab shows the whole dataset. */
export function isWhole(slice: DatasetSlice): boolean {
  return !hasRange(slice) && !hasFilter(slice);
}

/** The filters cleared, the range kept. */
export const NO_FILTERS: Partial<DatasetSlice> = { path: "", status: null, pattern: "", cls: "", host: "", client: "" };

/** The API's query for the slice (the summary, the requests, the arrivals' filters). */
export interface SliceQuery {
  from?: number;
  to?: number;
  path_prefix?: string;
  status_class?: StatusClass;
  path_pattern?: string;
  request_class?: string;
  host?: string;
  client?: string;
}

function filters(slice: DatasetSlice) {
  return {
    ...(slice.path === "" ? {} : { path_prefix: slice.path }),
    ...(slice.status === null ? {} : { status_class: slice.status }),
    ...(slice.pattern === "" ? {} : { path_pattern: slice.pattern }),
    ...(slice.cls === "" ? {} : { request_class: slice.cls }),
    ...(slice.host === "" ? {} : { host: slice.host }),
    ...(slice.client === "" ? {} : { client: slice.client }),
  };
}

export function sliceQuery(slice: DatasetSlice): SliceQuery {
  return {
    ...(slice.from === null ? {} : { from: slice.from }),
    ...(slice.to === null ? {} : { to: slice.to }),
    ...filters(slice),
  };
}

/** The slice as an analysis or characterization stores it (its key); null: the whole dataset. */
export interface SliceBody {
  from_ms?: number;
  to_ms?: number;
  path_prefix?: string;
  status_class?: StatusClass;
  path_pattern?: string;
  request_class?: string;
  host?: string;
  client?: string;
}

export function sliceBody(slice: DatasetSlice): SliceBody | null {
  if (isWhole(slice)) return null;
  return {
    ...(slice.from === null ? {} : { from_ms: slice.from }),
    ...(slice.to === null ? {} : { to_ms: slice.to }),
    ...filters(slice),
  };
}

/** The filters alone as a characterization stores them (null: none): the Traffic and Latency
 * tabs show the filters' own characterization and zoom into it, as they do the whole log's. */
export function filtersBody(slice: DatasetSlice): SliceBody | null {
  return hasFilter(slice) ? filters(slice) : null;
}

/** Whether a stored slice (nulls for absent fields) is the body's (null: the whole dataset). */
export function sameSlice(stored: Record<string, unknown> | null | undefined, body: SliceBody | null): boolean {
  const given = Object.entries(stored ?? {}).filter(([, v]) => v !== null && v !== undefined && v !== "");
  const want = Object.entries(body ?? {});
  return given.length === want.length && want.every(([k, v]) => (stored ?? {})[k] === v);
}

/** The slice in words: "10:00 → 10:05, path /api/*, host shop.example" ("the whole log"). */
export function describeFilters(slice: DatasetSlice): string[] {
  return [
    slice.path !== "" && `path ${slice.path}*`,
    slice.pattern !== "" && `path matching ${slice.pattern}`,
    slice.status !== null && `status ${slice.status}`,
    slice.cls !== "" && `class ${slice.cls}`,
    slice.host !== "" && `host ${slice.host}`,
    slice.client !== "" && `client ${slice.client}`,
  ].filter((f): f is string => typeof f === "string");
}

/** A zoom from one bucket start to another, both included: [first, last + bucket). */
export function zoomRange(aMs: number, bMs: number, bucketMs: number): { from: number; to: number } {
  return { from: Math.min(aMs, bMs), to: Math.max(aMs, bMs) + bucketMs };
}
