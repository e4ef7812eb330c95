import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { resumableUpload, resumeKey } from "../../api/resumableUpload";
import { FakeXhr } from "../../test/fakeXhr";
import { makeDataset } from "../../test/fixtures";
import { resumeText } from "./resume";
import { initialUploadState, uploadReducer, uploadStats, type UploadState } from "./uploadMachine";

const file = new File(["0123456789"], "big.log", { type: "text/plain", lastModified: 7 });

async function next(count: number): Promise<FakeXhr> {
  await vi.waitFor(() => expect(FakeXhr.instances.length).toBe(count));
  return FakeXhr.last();
}

beforeEach(() => {
  FakeXhr.reset();
  localStorage.clear();
  vi.stubGlobal("XMLHttpRequest", FakeXhr);
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe("a resumable upload that resumes", () => {
  it("reports where it resumed after a reload (a remembered session)", async () => {
    localStorage.setItem(resumeKey(file, 1), "u9");
    const onResume = vi.fn();
    const promise = resumableUpload({ file, workspaceId: 1, chunkBytes: 8, onResume, parse: { format: "combined" } });
    (await next(1)).respond(200, { id: "u9", offset_bytes: 6 });
    await vi.waitFor(() => expect(onResume).toHaveBeenCalledWith({ fromBytes: 6, totalBytes: 10, reason: "reload" }));
    (await next(2)).respond(200, { id: "u9", offset_bytes: 10 });
    (await next(3)).respond(202, makeDataset());
    await promise;
    expect(onResume).toHaveBeenCalledTimes(1);
  });

  it("reports a reconnect after a dropped chunk, and sends the parse options on create", async () => {
    const onResume = vi.fn();
    const parse = { log_format: "%h %t %r %>s %b" };
    const promise = resumableUpload({ file, workspaceId: 1, chunkBytes: 4, retryDelayMs: 1, onResume, parse });
    const create = await next(1);
    expect(JSON.parse(create.body as string)).toEqual({ name: "big.log", size_bytes: 10, workspace_id: 1, ...parse });
    create.respond(201, { id: "u8", offset_bytes: 0 });
    (await next(2)).respond(200, { id: "u8", offset_bytes: 4 });
    (await next(3)).fail(); // the connection dropped while sending bytes 4..8
    expect(onResume).not.toHaveBeenCalled();
    (await next(4)).respond(200, { id: "u8", offset_bytes: 8 });
    await vi.waitFor(() => expect(onResume).toHaveBeenCalledWith({ fromBytes: 4, totalBytes: 10, reason: "reconnect" }));
    (await next(5)).respond(200, { id: "u8", offset_bytes: 10 });
    (await next(6)).respond(202, makeDataset());
    await promise;
  });

  it("a fresh session reports no resume", async () => {
    const onResume = vi.fn();
    const promise = resumableUpload({ file, workspaceId: 2, chunkBytes: 10, onResume });
    (await next(1)).respond(201, { id: "u7", offset_bytes: 0 });
    (await next(2)).respond(200, { id: "u7", offset_bytes: 10 });
    (await next(3)).respond(202, makeDataset());
    await promise;
    expect(onResume).not.toHaveBeenCalled();
  });
});

describe("the upload state after a resume", () => {
  const started = uploadReducer(initialUploadState, {
    type: "start",
    file: { name: "big.log", sizeBytes: 1000 },
    nowMs: 0,
  });

  it("counts the rate from the bytes this page sent after a reload", () => {
    const resume = { fromBytes: 600, totalBytes: 1000, reason: "reload" as const };
    let state: UploadState = uploadReducer(started, { type: "resumed", resume, nowMs: 1000 });
    state = uploadReducer(state, { type: "progress", loadedBytes: 800, totalBytes: 1000, nowMs: 3000 });
    if (state.phase !== "uploading") throw new Error(state.phase);
    expect(state.resume).toEqual(resume);
    expect(uploadStats(state)).toEqual({ fraction: 0.8, bytesPerS: 100, etaS: 2 });
    expect(resumeText(resume)).toMatch(/^Resumed the earlier upload of this file at 600 B of 1\.0 kB/);
  });

  it("says the connection dropped and where it went on", () => {
    const resume = { fromBytes: 400, totalBytes: 1000, reason: "reconnect" as const };
    const state = uploadReducer(started, { type: "resumed", resume, nowMs: 5 });
    expect(state).toMatchObject({ phase: "uploading", loadedBytes: 400, startedAtMs: 0, resume });
    expect(resumeText(resume)).toBe("The connection dropped; resumed at 400 B of 1.0 kB.");
  });
});
