/**
 * The shape of a characterization's `result` (the API declares it as a free-form object):
 * `headroom characterize --json` plus `histograms` and `display`, written by
 * backend/headroom/workloads/run.py and headroom/engine/workload/display.py.
 */

export interface ArrivalStats {
  every_s: number;
  buckets: number;
  total: number;
  peak: number;
  trough: number;
  mean: number;
  peak_to_mean: number;
  /** Rates: counts over the seconds the log covers (the partial first and last buckets too). */
  covered_s?: number;
  peak_per_s?: number;
  trough_per_s?: number;
  mean_per_s?: number;
}

/** Requests per bucket of `every_s`, total and per request class; LTTB points when downsampled. */
export interface ArrivalView {
  every_s: number;
  stats: ArrivalStats;
  downsampled: boolean;
  t_ms: number[];
  count: number[];
  /** Each bucket's count over the seconds of it the log covers (absent in older results). */
  rate_per_s?: number[];
  by_class: Record<string, number[]>;
}

export interface PercentileColumns {
  t_ms: number[];
  count: number[];
  p50_s: (number | null)[];
  p90_s: (number | null)[];
  p95_s: (number | null)[];
  p99_s: (number | null)[];
  max_s: (number | null)[];
}

export interface LatencyView {
  every_s: number;
  overall: PercentileColumns;
  by_class: Record<string, PercentileColumns>;
}

export interface PathRow {
  path: string;
  requests: number;
  /** Requests with a latency. */
  count: number;
  p50_s: number | null;
  p90_s: number | null;
  p95_s: number | null;
  p99_s: number | null;
  max_s: number | null;
}

export interface CountHistogram {
  edges: number[];
  counts: number[];
}

export interface Display {
  arrivals: Record<string, ArrivalView>;
  /** null: the log covers less than a day. */
  daily_profile: { mean_per_min: (number | null)[]; days: number } | null;
  latency: LatencyView | null;
  /** Empty when the log records no paths. */
  paths: PathRow[];
  /** null: the log records no clients (or paths) to tell sessions (pages) apart. */
  pages_per_session: CountHistogram | null;
  /** What the timestamps resolve (s), the resolution the Traffic tab opens at, and a notice in words when they are coarser than a second. */
  timestamp_granularity_s?: number;
  default_every_s?: number;
  timestamp_notice?: string | null;
}

/** Which fields the log records; absent on characterizations made before it was kept. */
export interface FieldsRecorded {
  status: boolean;
  bytes: boolean;
  latency: boolean;
  client: boolean;
  user_agent: boolean;
  referrer: boolean;
  path: boolean;
  span_s: number;
  sessions: boolean;
  daily_profile: boolean;
}

/** Binned values of one fitted quantity with the chosen fit's pdf at the bin centres. */
export interface FittedHistogram {
  edges: number[];
  counts: number[];
  density: number[];
  fitted_pdf: number[] | null;
  fitted_dist: string | null;
  log_x: boolean;
  zeros: number;
}

export interface Candidate {
  dist: string;
  params: Record<string, number>;
  aic: number;
  ks: number;
  n: number;
}

export interface BodyTail {
  mu: number;
  sigma: number;
  alpha: number;
  split: number;
  tail_fraction: number;
  aic: number;
  ks: number;
}

export interface FitReport {
  dist: string | null;
  params: Record<string, number>;
  aic: number | null;
  ks: number | null;
  n: number;
  zero_fraction: number;
  ci95: Record<string, [number, number]>;
  candidates?: Candidate[];
  body_tail?: BodyTail | null;
  /** Why no family was fitted, in words (null when fitted). */
  reason?: string | null;
}

export interface LatencyPercentiles {
  count: number;
  p50_s: number;
  p90_s: number;
  p95_s: number;
  p99_s: number;
  max_s: number;
}

export interface CharacterizationResult {
  requests: number;
  arrivals: {
    peak_per_min: number;
    trough_per_min: number;
    mean_per_min: number;
    peak_to_mean: number;
  };
  classes: { request: Record<string, number>; user: Record<string, number> };
  /** Every figure null when the log records no paths. */
  pages: {
    count: number | null;
    with_base: number | null;
    objects_per_page_mean: number | null;
    bytes_per_page_mean: number | null;
    load_time_s_mean: number | null;
  };
  /** Every figure null when the log records no clients. */
  sessions: { count: number | null; pages_per_session_mean: number | null; requests_per_session_mean: number | null };
  latency: LatencyPercentiles | null;
  latency_by_class: Record<string, LatencyPercentiles>;
  fits: Record<string, FitReport>;
  histograms: Record<string, FittedHistogram>;
  display: Display;
  fields_recorded?: FieldsRecorded | null;
}
