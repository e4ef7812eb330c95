import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { FakeXhr } from "../test/fakeXhr";
import { makeDataset } from "../test/fixtures";
import { ApiError } from "./errors";
import { uploadDataset, uploadUrl } from "./upload";

beforeEach(() => {
  FakeXhr.reset();
  vi.stubGlobal("XMLHttpRequest", FakeXhr);
});

afterEach(() => {
  vi.unstubAllGlobals();
});

const file = new File(["line one\n"], "my access.log.gz", { type: "application/gzip" });

describe("uploadDataset", () => {
  it("posts the raw file with the workspace and name in the query", async () => {
    const progress = vi.fn();
    const promise = uploadDataset({ file, workspaceId: 4, onProgress: progress });
    const xhr = FakeXhr.last();
    expect(xhr.method).toBe("POST");
    expect(xhr.url).toBe("/api/v1/datasets?workspace_id=4&name=my+access.log.gz");
    expect(xhr.headers["Content-Type"]).toBe("application/octet-stream");
    expect(xhr.body).toBe(file);
    xhr.progress(5, 9);
    expect(progress).toHaveBeenCalledWith({ loadedBytes: 5, totalBytes: 9 });
    const dataset = makeDataset();
    xhr.respond(202, dataset);
    await expect(promise).resolves.toEqual({ dataset, created: true });
  });

  it("reports created=false when the server answers 200", async () => {
    const promise = uploadDataset({ file, workspaceId: null });
    FakeXhr.last().respond(200, makeDataset());
    await expect(promise).resolves.toMatchObject({ created: false });
    expect(uploadUrl("a.log", null)).toBe("/api/v1/datasets?name=a.log");
  });

  it("rejects with the API's error envelope", async () => {
    const promise = uploadDataset({ file, workspaceId: 1 });
    FakeXhr.last().respond(422, {
      error: {
        code: "unparseable_log",
        message: "No line of the file is a known access log format.",
        field: "file",
        detail: { line_number: 1, line: "hello", closest_format: "combined" },
      },
    });
    const error = await promise.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 422, code: "unparseable_log" });
    expect((error as ApiError).unparseable).toEqual({ line_number: 1, line: "hello", closest_format: "combined" });
  });

  it("turns junk bodies and network failures into readable errors", async () => {
    const junk = uploadDataset({ file, workspaceId: 1 });
    FakeXhr.last().respond(502, "<html>Bad gateway</html>");
    await expect(junk).rejects.toMatchObject({ status: 502, message: expect.stringContaining("bad gateway") as string });
    const offline = uploadDataset({ file, workspaceId: 1 });
    FakeXhr.last().fail();
    await expect(offline).rejects.toMatchObject({ code: "network_error" });
  });

  it("aborts when the signal fires", async () => {
    const controller = new AbortController();
    const promise = uploadDataset({ file, workspaceId: 1, signal: controller.signal });
    controller.abort();
    await expect(promise).rejects.toMatchObject({ code: "upload_cancelled" });
    expect(FakeXhr.last().aborted).toBe(true);
  });
});
