/** Test-only objects shaped like the API's answers (never imported by the app). */
import type { Dataset, Job, SeriesPoint, TrafficSummary, User } from "../api/models";

export function makeJob(overrides: Partial<Job> = {}): Job {
  return {
    id: 7,
    kind: "logs.ingest",
    status: "queued",
    progress: 0,
    stage: "queued",
    eta_s: null,
    attempts: 1,
    error_code: null,
    error_message: null,
    created_at: "2026-11-22T01:00:00Z",
    started_at: null,
    finished_at: null,
    ...overrides,
  };
}

export function makeDataset(overrides: Partial<Dataset> = {}): Dataset {
  return {
    id: 3,
    workspace_id: 1,
    name: "access.log",
    size_bytes: 1_234_567,
    sha256: "ab".repeat(32),
    format: null,
    status: "processing",
    created_at: "2026-11-22T01:00:00Z",
    uploaded_by: { id: 1, email: "ana@example.org", name: "Ana" },
    job: makeJob(),
    synthetic: false,
    ...overrides,
  };
}

export const user: User = {
  id: 1,
  email: "ana@example.org",
  name: "Ana",
  workspaces: [
    { id: 1, name: "Team A", role: "owner" },
    { id: 2, name: "Team B", role: "viewer" },
  ],
};

export function makeSeries(n: number, startMs = Date.UTC(2026, 10, 22, 0, 0)): SeriesPoint[] {
  return Array.from({ length: n }, (_, i) => ({
    t: new Date(startMs + i * 60_000).toISOString(),
    requests: 100 + i,
    rate_per_min: 100 + i,
    s1xx: 0,
    s2xx: 90 + i,
    s3xx: 5,
    s4xx: 4,
    s5xx: 1,
  }));
}

export function makeSummary(overrides: Partial<TrafficSummary> = {}): TrafficSummary {
  return {
    dataset_id: 3,
    format: "combined",
    format_confidence: 0.99,
    request_count: 10_000,
    rejected_count: 2,
    skipped_count: 0,
    rejects: [
      { line_number: 17, reason: "no timestamp", text: "garbage line" },
      { line_number: 99, reason: "bad status", text: '1.2.3.4 - - [x] "GET /" abc 12' },
    ],
    first_ts: "2026-11-22T00:00:00Z",
    last_ts: "2026-11-22T02:46:40Z",
    span_s: 10_000,
    mean_rate_per_s: 1,
    peak_rate_per_min: 180,
    error_rate: 0.0123,
    client_error_rate: 0.04,
    status_counts: { "1xx": 0, "2xx": 9100, "3xx": 500, "4xx": 400, "5xx": 123 },
    bytes_total: 52_000_000,
    latency: { count: 10_000, mean_s: 0.05, p50_s: 0.031, p95_s: 0.2, p99_s: 0.9, max_s: 3.2 },
    bucket_s: 60,
    series: makeSeries(5),
    notes: ["2 lines could not be parsed."],
    timestamp_granularity_s: 1,
    timestamp_notice: null,
    peak_bucket_s: 60,
    ...overrides,
  };
}
