/** The API's error envelope turned into one Error type the UI can always show. */

export interface UnparseableDetail {
  line_number: number;
  line: string;
  closest_format: string | null;
}

export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly field: string | null;
  readonly detail: Record<string, unknown> | null;

  constructor(
    status: number,
    code: string,
    message: string,
    field: string | null = null,
    detail: Record<string, unknown> | null = null,
  ) {
    super(message);
    this.name = "ApiError";
    this.status = status;
    this.code = code;
    this.field = field;
    this.detail = detail;
  }

  /** For `unparseable_log`: the first line that no format could read. */
  get unparseable(): UnparseableDetail | null {
    const d = this.detail;
    if (this.code !== "unparseable_log" || d === null) return null;
    if (typeof d.line_number !== "number" || typeof d.line !== "string") return null;
    const closest = typeof d.closest_format === "string" ? d.closest_format : null;
    return { line_number: d.line_number, line: d.line, closest_format: closest };
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function str(value: unknown): string | null {
  return typeof value === "string" && value.trim() !== "" ? value : null;
}

/** FastAPI's default 422 body: {detail: [{loc: [...], msg}]} -> "field: msg". */
function validationMessage(detail: unknown): { message: string; field: string | null } | null {
  if (!Array.isArray(detail) || detail.length === 0) return null;
  const first: unknown = detail[0];
  if (!isRecord(first) || typeof first.msg !== "string") return null;
  const loc = Array.isArray(first.loc) ? first.loc.filter((p) => p !== "body" && p !== "query") : [];
  const field = loc.length > 0 ? loc.map(String).join(".") : null;
  return { message: field === null ? first.msg : `${field}: ${first.msg}`, field };
}

const STATUS_MESSAGES: Record<number, string> = {
  400: "The server could not understand the request.",
  401: "Your session has ended. Please sign in again.",
  403: "Your role in this workspace does not allow this.",
  404: "Not found. It may have been deleted, or it belongs to a workspace you are not a member of.",
  413: "The file is larger than the server accepts.",
  500: "The server hit an unexpected error. Try again in a moment.",
  502: "The server is not reachable right now (bad gateway). Try again in a moment.",
  503: "The server is temporarily unavailable. Try again in a moment.",
};

export function fallbackMessage(status: number): string {
  return STATUS_MESSAGES[status] ?? `The server answered with HTTP ${status}.`;
}

/** Builds an ApiError from any response body: the envelope, FastAPI's `detail`, or junk. */
export function toApiError(status: number, body: unknown): ApiError {
  if (isRecord(body) && isRecord(body.error)) {
    const e = body.error;
    const detail = isRecord(e.detail) ? e.detail : null;
    return new ApiError(
      status,
      str(e.code) ?? `http_${status}`,
      str(e.message) ?? fallbackMessage(status),
      str(e.field),
      detail,
    );
  }
  if (isRecord(body) && typeof body.detail === "string") {
    return new ApiError(status, `http_${status}`, body.detail);
  }
  const validation = isRecord(body) ? validationMessage(body.detail) : null;
  if (validation !== null) return new ApiError(status, "validation_error", validation.message, validation.field);
  return new ApiError(status, `http_${status}`, fallbackMessage(status));
}

export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}

export const networkError = (): ApiError =>
  new ApiError(0, "network_error", "Could not reach the Headroom server. Check your connection and try again.");

/** Any thrown value as an ApiError, so the UI never prints "[object Object]". */
export function asApiError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  if (error instanceof TypeError) return networkError();
  const message = error instanceof Error && error.message ? error.message : "Something went wrong.";
  return new ApiError(0, "client_error", message);
}
