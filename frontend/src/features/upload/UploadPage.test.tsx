import { act, cleanup, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { Job } from "../../api/models";
import { FakeXhr } from "../../test/fakeXhr";
import { makeDataset, makeJob } from "../../test/fixtures";
import { jsonResponse, renderWithApp } from "../../test/render";
import { UploadPage } from "./UploadPage";

const file = new File(["x".repeat(1000)], "access.log", { type: "text/plain" });

/** Serves GET /jobs/7 from a queue of job states (the last one repeats); null answers 404. */
function stubJobPolls(states: (Job | null)[]) {
  const fetchMock = vi.fn((request: Request) => {
    const url = new URL(request.url);
    if (url.pathname !== "/api/v1/jobs/7") return Promise.resolve(jsonResponse(404, {}));
    const next = states.length > 1 ? states.shift() : states[0];
    if (next === null || next === undefined) {
      return Promise.resolve(jsonResponse(404, { error: { code: "not_found", message: "job 7 not found" } }));
    }
    return Promise.resolve(jsonResponse(200, next));
  });
  vi.stubGlobal("fetch", fetchMock);
  return fetchMock;
}

async function chooseFile() {
  renderWithApp(<UploadPage />, { path: "/upload", route: "/upload" });
  await userEvent.upload(screen.getByTestId("file-input"), file);
  return FakeXhr.last();
}

beforeEach(() => {
  FakeXhr.reset();
  vi.stubGlobal("XMLHttpRequest", FakeXhr);
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe("UploadPage", () => {
  it("shows upload progress, then job progress, then opens the dataset", async () => {
    const fetchMock = stubJobPolls([
      makeJob({ status: "running", progress: 0.4, stage: "parsing", eta_s: 12 }),
      makeJob({ status: "succeeded", progress: 1, stage: "done" }),
    ]);
    const xhr = await chooseFile();
    expect(xhr.url).toBe("/api/v1/datasets?workspace_id=1&name=access.log");

    act(() => xhr.progress(500, 1000));
    const upload = screen.getByTestId("upload-progress");
    expect(upload).toHaveAttribute("aria-valuenow", "50");
    expect(screen.getByText(/500 B of 1\.0 kB/)).toBeInTheDocument();

    await act(async () => xhr.respond(202, makeDataset({ job: makeJob({ status: "queued" }) })));
    expect(screen.getByTestId("upload-progress")).toHaveAttribute("aria-valuenow", "100");
    expect(screen.getByTestId("job-progress")).toHaveAttribute("aria-valuenow", "0");

    await waitFor(() => expect(screen.getByTestId("job-progress")).toHaveAttribute("aria-valuenow", "40"));
    expect(screen.getByText("Parsing log lines")).toBeInTheDocument();
    expect(screen.getByText(/about 12 s left/)).toBeInTheDocument();

    await waitFor(() => expect(screen.getByTestId("location")).toHaveTextContent("/datasets/3"), { timeout: 4000 });
    expect(fetchMock).toHaveBeenCalled();
  });

  it("tolerates a job that is not visible yet, and fails when it stays missing", async () => {
    stubJobPolls([null, makeJob({ status: "succeeded", progress: 1 })]);
    let xhr = await chooseFile();
    await act(async () => xhr.respond(202, makeDataset()));
    await waitFor(() => expect(screen.getByTestId("location")).toHaveTextContent("/datasets/3"), { timeout: 4000 });

    cleanup();
    stubJobPolls([null]);
    xhr = await chooseFile();
    await act(async () => xhr.respond(202, makeDataset()));
    await waitFor(() => expect(screen.getByRole("alert")).toHaveTextContent("job 7 not found"), { timeout: 6000 });
  }, 12_000);

  it("says so and opens the existing dataset when the file was already uploaded", async () => {
    stubJobPolls([makeJob({ status: "succeeded" })]);
    const xhr = await chooseFile();
    await act(async () => xhr.respond(200, makeDataset({ id: 42, status: "ready", job: makeJob({ status: "succeeded" }) })));
    await waitFor(() => expect(screen.getByTestId("location")).toHaveTextContent("/datasets/42"));
  });

  it("shows the API's message and the failing line when the log cannot be parsed", async () => {
    stubJobPolls([makeJob()]);
    const xhr = await chooseFile();
    await act(async () =>
      xhr.respond(422, {
        error: {
          code: "unparseable_log",
          message: "No line of access.log is in a known access log format.",
          field: "file",
          detail: { line_number: 1, line: "hello world", closest_format: "combined" },
        },
      }),
    );
    expect(screen.getByRole("alert")).toHaveTextContent("No line of access.log is in a known access log format.");
    expect(screen.getByTestId("error-line")).toHaveTextContent("hello world");
    expect(screen.getByText(/Line 1 \(closest format: combined\)/)).toBeInTheDocument();
    expect(screen.getByRole("alert")).toHaveTextContent(/reads access logs in Combined Log Format/);
    expect(screen.queryByText(/\[object Object\]/)).not.toBeInTheDocument();
    expect(screen.getByTestId("file-input")).toBeInTheDocument();
  });

  it("shows the job's error when processing fails", async () => {
    stubJobPolls([makeJob({ status: "failed", error_code: "worker_lost", error_message: "The worker died twice." })]);
    const xhr = await chooseFile();
    await act(async () => xhr.respond(202, makeDataset()));
    await waitFor(() => expect(screen.getByRole("alert")).toHaveTextContent("The worker died twice."));
    expect(screen.getByText("The log could not be processed")).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Open the dataset" })).toHaveAttribute("href", "/datasets/3");
  });

  it("asks before leaving the page during an upload", async () => {
    stubJobPolls([makeJob()]);
    const confirm = vi.spyOn(window, "confirm").mockReturnValueOnce(false).mockReturnValueOnce(true);
    const { router } = renderWithApp(<UploadPage />, { path: "/upload", route: "/upload" });
    await userEvent.upload(screen.getByTestId("file-input"), file);
    const xhr = FakeXhr.last();
    await act(() => router.navigate("/datasets"));
    expect(confirm).toHaveBeenCalledTimes(1);
    expect(router.state.location.pathname).toBe("/upload");
    expect(xhr.aborted).toBe(false);
    await act(() => router.navigate("/datasets"));
    expect(router.state.location.pathname).toBe("/datasets");
    expect(xhr.aborted).toBe(true);
  });

  it("can cancel a running upload", async () => {
    stubJobPolls([makeJob()]);
    const xhr = await chooseFile();
    await userEvent.click(screen.getByRole("button", { name: "Cancel upload" }));
    expect(xhr.aborted).toBe(true);
    expect(screen.queryByTestId("upload-progress")).not.toBeInTheDocument();
    expect(screen.queryByRole("alert")).not.toBeInTheDocument();
  });
});
