/**
 * The upload flow as a pure state machine:
 * idle -> uploading -> processing -> done, or -> failed from either active phase.
 * A 200 answer (same bytes already stored) goes straight to done with created=false.
 */
import { ApiError } from "../../api/errors";
import type { Dataset, Job } from "../../api/models";
import type { UploadResume } from "../../api/upload";
import { jobFailure } from "../jobs/jobFailure";

export interface FileInfo {
  name: string;
  sizeBytes: number;
}

export type UploadState =
  | { phase: "idle" }
  | {
      phase: "uploading";
      file: FileInfo;
      loadedBytes: number;
      totalBytes: number;
      startedAtMs: number;
      nowMs: number;
      /** bytes already on the server when this page started sending (a reload's resume) */
      baseBytes?: number;
      resume?: UploadResume;
    }
  | { phase: "processing"; file: FileInfo; dataset: Dataset; job: Job | null }
  | { phase: "done"; file: FileInfo; dataset: Dataset; created: boolean }
  | { phase: "failed"; file: FileInfo | null; stage: "upload" | "processing"; error: ApiError; dataset: Dataset | null };

export type UploadEvent =
  | { type: "start"; file: FileInfo; nowMs: number }
  | { type: "progress"; loadedBytes: number; totalBytes: number; nowMs: number }
  | { type: "resumed"; resume: UploadResume; nowMs: number }
  | { type: "uploaded"; dataset: Dataset; created: boolean }
  | { type: "job"; job: Job }
  | { type: "dataset"; dataset: Dataset }
  | { type: "failed"; error: ApiError }
  | { type: "reset" };

export const initialUploadState: UploadState = { phase: "idle" };

function afterJob(file: FileInfo, dataset: Dataset, job: Job): UploadState {
  if (job.status === "succeeded") return { phase: "done", file, dataset, created: true };
  if (job.status === "failed" || job.status === "cancelled") {
    return { phase: "failed", file, stage: "processing", error: jobFailure(job), dataset };
  }
  return { phase: "processing", file, dataset, job };
}

/** A dataset as returned by the upload or a poll: where does the flow stand? */
function afterDataset(file: FileInfo, dataset: Dataset): UploadState {
  if (dataset.job !== null) return afterJob(file, dataset, dataset.job);
  if (dataset.status === "ready") return { phase: "done", file, dataset, created: true };
  if (dataset.status === "failed") {
    return { phase: "failed", file, stage: "processing", error: jobFailure(null), dataset };
  }
  return { phase: "processing", file, dataset, job: null };
}

function onUploading(state: Extract<UploadState, { phase: "uploading" }>, event: UploadEvent): UploadState {
  switch (event.type) {
    case "progress":
      return {
        ...state,
        loadedBytes: Math.max(state.loadedBytes, Math.min(event.loadedBytes, event.totalBytes)),
        totalBytes: event.totalBytes,
        nowMs: event.nowMs,
      };
    case "resumed": {
      const { resume, nowMs } = event;
      const loadedBytes = Math.max(state.loadedBytes, resume.fromBytes);
      if (resume.reason === "reconnect") return { ...state, resume, loadedBytes, nowMs };
      return { ...state, resume, loadedBytes, baseBytes: resume.fromBytes, startedAtMs: nowMs, nowMs };
    }
    case "uploaded":
      if (!event.created) return { phase: "done", file: state.file, dataset: event.dataset, created: false };
      return afterDataset(state.file, event.dataset);
    case "failed":
      return { phase: "failed", file: state.file, stage: "upload", error: event.error, dataset: null };
    default:
      return state;
  }
}

function onProcessing(state: Extract<UploadState, { phase: "processing" }>, event: UploadEvent): UploadState {
  switch (event.type) {
    case "job":
      if (state.job !== null && event.job.id !== state.job.id) return state;
      return afterJob(state.file, state.dataset, event.job);
    case "dataset":
      return event.dataset.id === state.dataset.id ? afterDataset(state.file, event.dataset) : state;
    case "failed":
      return { phase: "failed", file: state.file, stage: "processing", error: event.error, dataset: state.dataset };
    default:
      return state;
  }
}

export function uploadReducer(state: UploadState, event: UploadEvent): UploadState {
  if (event.type === "reset") return initialUploadState;
  if (event.type === "start") {
    if (state.phase === "uploading" || state.phase === "processing") return state;
    const { file, nowMs } = event;
    return { phase: "uploading", file, loadedBytes: 0, totalBytes: file.sizeBytes, startedAtMs: nowMs, nowMs };
  }
  if (state.phase === "uploading") return onUploading(state, event);
  if (state.phase === "processing") return onProcessing(state, event);
  return state;
}

export interface UploadStats {
  fraction: number;
  bytesPerS: number | null;
  etaS: number | null;
}

/** Fraction sent, average rate since the start (bytes sent by this page only), and the
 * time left at that rate. */
export function uploadStats(state: Extract<UploadState, { phase: "uploading" }>): UploadStats {
  const total = state.totalBytes > 0 ? state.totalBytes : 1;
  const fraction = Math.min(1, state.loadedBytes / total);
  const elapsedS = (state.nowMs - state.startedAtMs) / 1000;
  const sent = state.loadedBytes - (state.baseBytes ?? 0);
  if (elapsedS <= 0.2 || sent <= 0) return { fraction, bytesPerS: null, etaS: null };
  const bytesPerS = sent / elapsedS;
  return { fraction, bytesPerS, etaS: (state.totalBytes - state.loadedBytes) / bytesPerS };
}

export function isBusy(state: UploadState): boolean {
  return state.phase === "uploading" || state.phase === "processing";
}
