import { createHash } from "node:crypto";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { FakeXhr } from "../test/fakeXhr";
import { makeDataset } from "../test/fixtures";
import { resumableUpload, resumeKey } from "./resumableUpload";

beforeEach(() => {
  FakeXhr.reset();
  localStorage.clear();
  vi.stubGlobal("XMLHttpRequest", FakeXhr);
});

afterEach(() => {
  vi.unstubAllGlobals();
});

const file = new File(["0123456789"], "big.log", { type: "text/plain", lastModified: 42 });

/** The next request the uploader opens (requests follow awaited steps, so wait a tick). */
async function next(count: number): Promise<FakeXhr> {
  await vi.waitFor(() => expect(FakeXhr.instances.length).toBe(count));
  return FakeXhr.last();
}

describe("resumableUpload", () => {
  it("creates a session, sends chunks at the server's offsets, then completes", async () => {
    const progress = vi.fn();
    const promise = resumableUpload({ file, workspaceId: 3, onProgress: progress, chunkBytes: 4 });
    const create = await next(1);
    expect([create.method, create.url]).toEqual(["POST", "/api/v1/uploads"]);
    expect(JSON.parse(create.body as string)).toEqual({ name: "big.log", size_bytes: 10, workspace_id: 3 });
    create.respond(201, { id: "u1", offset_bytes: 0 });
    for (const [i, offset] of [0, 4, 8].entries()) {
      const put = await next(2 + i);
      expect(put.method).toBe("PUT");
      expect(put.url).toBe(`/api/v1/uploads/u1/chunks?offset=${offset}`);
      expect((put.body as Blob).size).toBe(Math.min(4, 10 - offset));
      const bytes = "0123456789".slice(offset, offset + 4);
      expect(put.headers["X-Chunk-SHA256"]).toBe(createHash("sha256").update(bytes).digest("hex"));
      put.progress(1, 4);
      expect(progress).toHaveBeenLastCalledWith({ loadedBytes: offset + 1, totalBytes: 10 });
      put.respond(200, { id: "u1", offset_bytes: Math.min(offset + 4, 10) });
    }
    const complete = await next(5);
    expect(complete.url).toBe("/api/v1/uploads/u1/complete");
    const dataset = makeDataset();
    complete.respond(202, dataset);
    await expect(promise).resolves.toEqual({ dataset, created: true });
    expect(localStorage.getItem(resumeKey(file, 3))).toBeNull();
  });

  it("resumes a remembered session from the offset the server reports", async () => {
    localStorage.setItem(resumeKey(file, null), "u2");
    const progress = vi.fn();
    const promise = resumableUpload({ file, workspaceId: null, onProgress: progress, chunkBytes: 8 });
    const ask = await next(1);
    expect([ask.method, ask.url]).toEqual(["GET", "/api/v1/uploads/u2"]);
    ask.respond(200, { id: "u2", offset_bytes: 6 });
    const put = await next(2);
    expect(put.url).toBe("/api/v1/uploads/u2/chunks?offset=6");
    expect(progress).toHaveBeenCalledWith({ loadedBytes: 6, totalBytes: 10 });
    put.respond(200, { id: "u2", offset_bytes: 10 });
    (await next(3)).respond(200, makeDataset());
    await expect(promise).resolves.toMatchObject({ created: false });
  });

  it("retries a dropped chunk and follows the server's offset on a conflict", async () => {
    const promise = resumableUpload({ file, workspaceId: 1, chunkBytes: 10, retryDelayMs: 1 });
    (await next(1)).respond(201, { id: "u3", offset_bytes: 0 });
    (await next(2)).fail(); // the connection dropped
    const conflict = await next(3);
    conflict.respond(409, { error: { code: "offset_mismatch", message: "m", field: null, detail: { offset_bytes: 10 } } });
    (await next(4)).respond(202, makeDataset());
    await expect(promise).resolves.toMatchObject({ created: true });
  });

  it("surfaces the server's refusal at completion", async () => {
    const promise = resumableUpload({ file, workspaceId: 1, chunkBytes: 10 });
    (await next(1)).respond(201, { id: "u4", offset_bytes: 0 });
    (await next(2)).respond(200, { id: "u4", offset_bytes: 10 });
    (await next(3)).respond(422, {
      error: { code: "unparseable_log", message: "no supported log format", field: "file", detail: null },
    });
    await expect(promise).rejects.toMatchObject({ status: 422, code: "unparseable_log" });
  });
});
