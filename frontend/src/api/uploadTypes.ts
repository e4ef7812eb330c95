/** What an upload is given and answers, whole or resumable (upload.ts, resumableUpload.ts). */
import type { Dataset } from "./models";

export interface UploadProgress {
  loadedBytes: number;
  totalBytes: number;
}

export interface UploadResult {
  dataset: Dataset;
  /** true when the server answered 202 (its ingest queued); false when it answered 200: the same bytes were already in the workspace. */
  created: boolean;
}

/** A resumable upload went on from `fromBytes` after a reload (a remembered session) or a
 * dropped connection (a chunk sent again). */
export interface UploadResume {
  fromBytes: number;
  totalBytes: number;
  reason: "reload" | "reconnect";
}

export interface UploadOptions {
  file: File;
  workspaceId: number | null;
  onProgress?: (progress: UploadProgress) => void;
  signal?: AbortSignal;
  /** How to parse the file: `format`, `log_format`, `zip_members` (omitted: detect). */
  parse?: Record<string, string>;
  onResume?: (resume: UploadResume) => void;
}
