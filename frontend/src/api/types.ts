/**
 * Hand-written from docs/api.md until the backend publishes frontend/openapi.json;
 * then `npm run gen:api` produces schema.d.ts with the same `paths`/`components` shape
 * and this file is deleted. Keep the shape identical to openapi-typescript's output.
 */

type Datetime = string;

export interface components {
  schemas: {
    ErrorBody: {
      code: string;
      message: string;
      field: string | null;
      detail: Record<string, unknown> | null;
    };
    ErrorResponse: { error: components["schemas"]["ErrorBody"] };
    WorkspaceMembership: { id: number; name: string; role: "owner" | "editor" | "viewer" };
    User: {
      id: number;
      email: string;
      name: string;
      workspaces: components["schemas"]["WorkspaceMembership"][];
    };
    UserRef: { id: number; email: string; name: string };
    LoginRequest: { email: string; password: string };
    Job: {
      id: number;
      kind: string;
      status: "queued" | "running" | "succeeded" | "failed" | "cancelled";
      progress: number;
      stage: string | null;
      eta_s: number | null;
      attempts: number;
      error_code: string | null;
      error_message: string | null;
      created_at: Datetime;
      started_at: Datetime | null;
      finished_at: Datetime | null;
    };
    Dataset: {
      id: number;
      workspace_id: number;
      name: string;
      size_bytes: number;
      sha256: string;
      format: string | null;
      status: "uploaded" | "processing" | "ready" | "failed";
      created_at: Datetime;
      uploaded_by: components["schemas"]["UserRef"];
      job: components["schemas"]["Job"] | null;
    };
    DatasetPage: { items: components["schemas"]["Dataset"][]; total: number };
    Reject: { line_number: number; reason: string; text: string };
    LatencySummary: {
      count: number;
      mean_s: number;
      p50_s: number;
      p95_s: number;
      p99_s: number;
      max_s: number;
    };
    SeriesPoint: {
      t: Datetime;
      requests: number;
      rate_per_min: number;
      s1xx: number;
      s2xx: number;
      s3xx: number;
      s4xx: number;
      s5xx: number;
    };
    TrafficSummary: {
      dataset_id: number;
      format: string;
      format_confidence: number;
      request_count: number;
      rejected_count: number;
      rejects: components["schemas"]["Reject"][];
      first_ts: Datetime;
      last_ts: Datetime;
      span_s: number;
      mean_rate_per_s: number;
      peak_rate_per_min: number;
      error_rate: number;
      client_error_rate: number;
      status_counts: Record<string, number>;
      bytes_total: number;
      latency: components["schemas"]["LatencySummary"] | null;
      bucket_s: number;
      series: components["schemas"]["SeriesPoint"][];
      notes: string[];
    };
  };
}

type S = components["schemas"];
type Json<T> = { content: { "application/json": T } };
type Err = Json<S["ErrorResponse"]>;

export interface paths {
  "/api/v1/auth/login": {
    post: {
      requestBody: Json<S["LoginRequest"]>;
      responses: { 200: Json<S["User"]>; 401: Err; 422: Err };
    };
  };
  "/api/v1/auth/logout": {
    post: { responses: { 204: { content?: never } } };
  };
  "/api/v1/auth/me": {
    get: { responses: { 200: Json<S["User"]>; 401: Err } };
  };
  "/api/v1/datasets": {
    get: {
      parameters: { query?: { workspace_id?: number; limit?: number; offset?: number } };
      responses: { 200: Json<S["DatasetPage"]>; 401: Err };
    };
  };
  "/api/v1/datasets/{dataset_id}": {
    get: {
      parameters: { path: { dataset_id: number } };
      responses: { 200: Json<S["Dataset"]>; 404: Err };
    };
  };
  "/api/v1/datasets/{dataset_id}/summary": {
    get: {
      parameters: { path: { dataset_id: number } };
      responses: { 200: Json<S["TrafficSummary"]>; 404: Err };
    };
  };
  "/api/v1/jobs/{job_id}": {
    get: {
      parameters: { path: { job_id: number } };
      responses: { 200: Json<S["Job"]>; 404: Err };
    };
  };
}
