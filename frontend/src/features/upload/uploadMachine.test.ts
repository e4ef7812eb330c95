import { describe, expect, it } from "vitest";
import { ApiError } from "../../api/errors";
import { makeDataset, makeJob } from "../../test/fixtures";
import { initialUploadState, uploadReducer, uploadStats, type UploadEvent, type UploadState } from "./uploadMachine";

const file = { name: "access.log.gz", sizeBytes: 1000 };

function run(events: UploadEvent[], from: UploadState = initialUploadState): UploadState {
  return events.reduce(uploadReducer, from);
}

const start: UploadEvent = { type: "start", file, nowMs: 0 };

describe("uploadReducer", () => {
  it("goes idle -> uploading -> processing -> done", () => {
    const job = makeJob({ status: "queued" });
    const dataset = makeDataset({ job });
    let s = run([start, { type: "progress", loadedBytes: 400, totalBytes: 1000, nowMs: 1000 }]);
    expect(s).toMatchObject({ phase: "uploading", loadedBytes: 400, totalBytes: 1000 });
    s = run([{ type: "uploaded", dataset, created: true }], s);
    expect(s).toMatchObject({ phase: "processing", job: { status: "queued" } });
    s = run([{ type: "job", job: makeJob({ status: "running", progress: 0.5, stage: "parsing" }) }], s);
    expect(s).toMatchObject({ phase: "processing", job: { progress: 0.5, stage: "parsing" } });
    s = run([{ type: "job", job: makeJob({ status: "succeeded", progress: 1 }) }], s);
    expect(s).toMatchObject({ phase: "done", created: true, dataset: { id: dataset.id } });
  });

  it("a 200 answer (already uploaded) goes straight to done, not created", () => {
    const dataset = makeDataset({ status: "ready", job: makeJob({ status: "succeeded" }) });
    const s = run([start, { type: "uploaded", dataset, created: false }]);
    expect(s).toEqual({ phase: "done", file, dataset, created: false });
  });

  it("an upload error fails the upload stage and keeps the API error", () => {
    const error = new ApiError(413, "file_too_large", "The file is larger than 10 GB.");
    const s = run([start, { type: "failed", error }]);
    expect(s).toMatchObject({ phase: "failed", stage: "upload", error, dataset: null });
  });

  it("a failed job fails the processing stage with the job's message", () => {
    const dataset = makeDataset();
    const failed = makeJob({ status: "failed", error_code: "unparseable_log", error_message: "No line matched." });
    const s = run([start, { type: "uploaded", dataset, created: true }, { type: "job", job: failed }]);
    expect(s).toMatchObject({ phase: "failed", stage: "processing", dataset: { id: dataset.id } });
    if (s.phase !== "failed") throw new Error("unreachable");
    expect(s.error.code).toBe("unparseable_log");
    expect(s.error.message).toBe("No line matched.");
  });

  it("an upload answered with an already-finished job completes at once", () => {
    const dataset = makeDataset({ status: "ready", job: makeJob({ status: "succeeded", progress: 1 }) });
    expect(run([start, { type: "uploaded", dataset, created: true }])).toMatchObject({ phase: "done", created: true });
  });

  it("without a job, dataset polls decide the outcome", () => {
    const dataset = makeDataset({ job: null, status: "uploaded" });
    let s = run([start, { type: "uploaded", dataset, created: true }]);
    expect(s).toMatchObject({ phase: "processing", job: null });
    s = run([{ type: "dataset", dataset: { ...dataset, status: "ready" } }], s);
    expect(s).toMatchObject({ phase: "done" });
  });

  it("ignores progress that goes backwards or past the total, and events of other phases", () => {
    let s = run([
      start,
      { type: "progress", loadedBytes: 600, totalBytes: 1000, nowMs: 1 },
      { type: "progress", loadedBytes: 300, totalBytes: 1000, nowMs: 2 },
    ]);
    expect(s).toMatchObject({ loadedBytes: 600 });
    s = run([{ type: "progress", loadedBytes: 5000, totalBytes: 1000, nowMs: 3 }], s);
    expect(s).toMatchObject({ loadedBytes: 1000 });
    expect(run([{ type: "job", job: makeJob() }])).toBe(initialUploadState);
    expect(run([start, start])).toMatchObject({ phase: "uploading" });
  });

  it("ignores polls of another job and resets to idle", () => {
    const dataset = makeDataset();
    const s = run([start, { type: "uploaded", dataset, created: true }]);
    expect(run([{ type: "job", job: makeJob({ id: 999, status: "succeeded" }) }], s)).toBe(s);
    expect(run([{ type: "reset" }], s)).toBe(initialUploadState);
  });
});

describe("uploadStats", () => {
  it("reports fraction, average rate and time left", () => {
    const s = run([start, { type: "progress", loadedBytes: 250, totalBytes: 1000, nowMs: 2000 }]);
    if (s.phase !== "uploading") throw new Error("unreachable");
    expect(uploadStats(s)).toEqual({ fraction: 0.25, bytesPerS: 125, etaS: 6 });
  });
  it("does not guess a rate before any time has passed", () => {
    const s = run([start]);
    if (s.phase !== "uploading") throw new Error("unreachable");
    expect(uploadStats(s)).toEqual({ fraction: 0, bytesPerS: null, etaS: null });
  });
});
