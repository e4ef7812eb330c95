import { ApiError } from "../../api/errors";
import type { Job } from "../../api/models";

/** A failed job's error as an ApiError, so it is shown like any other API error. */
export function jobFailure(job: Pick<Job, "error_code" | "error_message" | "status"> | null): ApiError {
  if (job?.status === "cancelled") return new ApiError(0, "job_cancelled", "Processing was cancelled.");
  return new ApiError(
    0,
    job?.error_code ?? "job_failed",
    job?.error_message ?? "Processing failed without an error message.",
  );
}

const HINTS: Record<string, string> = {
  file_too_large: "Compress the log with gzip (.gz files are accepted as they are) or split it, then upload it again.",
  empty_file: "The file is empty. Choose the access log itself and upload it again.",
  unparseable_log:
    "Headroom reads access logs in Combined Log Format, optionally with a response time at the end of each line. Check that this is the right file, then upload it again.",
  network_error: "Check your connection and try again. Large uploads need a stable connection.",
  not_authenticated: "Your session has ended. Sign in again, then upload the file again.",
  forbidden: "Your role in this workspace cannot upload. Ask an owner for the editor role, or pick another workspace.",
  validation_error: "Check the file and the selected workspace, then try again.",
  upload_cancelled: "Choose the file again to start over.",
  job_cancelled: "Upload the file again to process it.",
};

/** What the user can do about an error, in one sentence. */
export function jobFailureHint(error: ApiError): string {
  return (
    HINTS[error.code] ??
    "Upload the file again. If it keeps failing, check that it is a web server access log, or contact your administrator."
  );
}
