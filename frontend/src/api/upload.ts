/**
 * Dataset upload over XMLHttpRequest: fetch() cannot report upload progress.
 * A small file is sent whole as the raw body; a large one in resumable chunks.
 */
import { API_PREFIX } from "./client";
import { ApiError, networkError, parseJson, toApiError } from "./errors";
import type { Dataset } from "./models";
import { resumableUpload } from "./resumableUpload";
import type { UploadOptions, UploadResult } from "./uploadTypes";

export type { UploadOptions, UploadProgress, UploadResult, UploadResume } from "./uploadTypes";

export function uploadUrl(fileName: string, workspaceId: number | null, parse: Record<string, string> = {}): string {
  const params = new URLSearchParams();
  if (workspaceId !== null) params.set("workspace_id", String(workspaceId));
  params.set("name", fileName);
  for (const [key, value] of Object.entries(parse)) params.set(key, value);
  return `${API_PREFIX}/datasets?${params.toString()}`;
}

export const uploadCancelled = (): ApiError => new ApiError(0, "upload_cancelled", "The upload was cancelled.");

function settle(xhr: XMLHttpRequest): UploadResult {
  const body = parseJson(xhr.responseText);
  if (xhr.status === 200 || xhr.status === 202) {
    if (body === null) throw toApiError(xhr.status, null);
    return { dataset: body as Dataset, created: xhr.status === 202 };
  }
  throw toApiError(xhr.status, body);
}

/** Larger files go in confirmed chunks, so an interrupted upload resumes (resumableUpload.ts). */
export const RESUMABLE_FROM_BYTES = 16 * 1024 * 1024;

export function uploadDataset(options: UploadOptions): Promise<UploadResult> {
  return options.file.size > RESUMABLE_FROM_BYTES ? resumableUpload(options) : uploadWhole(options);
}

function uploadWhole({ file, workspaceId, onProgress, signal, parse }: UploadOptions): Promise<UploadResult> {
  return new Promise<UploadResult>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open("POST", uploadUrl(file.name, workspaceId, parse));
    xhr.withCredentials = true;
    xhr.setRequestHeader("Content-Type", "application/octet-stream");
    xhr.setRequestHeader("Accept", "application/json");
    xhr.upload.onprogress = (e: ProgressEvent) => {
      onProgress?.({ loadedBytes: e.loaded, totalBytes: e.lengthComputable ? e.total : file.size });
    };
    xhr.onload = () => {
      try {
        resolve(settle(xhr));
      } catch (err) {
        reject(err instanceof Error ? err : toApiError(xhr.status, null));
      }
    };
    xhr.onerror = () => reject(networkError());
    xhr.onabort = () => reject(uploadCancelled());
    if (signal?.aborted) {
      reject(uploadCancelled());
      return;
    }
    signal?.addEventListener("abort", () => xhr.abort(), { once: true });
    xhr.send(file);
  });
}
