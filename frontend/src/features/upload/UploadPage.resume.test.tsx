import { act, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { UploadOptions } from "../../api/upload";
import { renderWithApp } from "../../test/render";
import { UploadPage } from "./UploadPage";

const calls: UploadOptions[] = [];

vi.mock("../../api/upload", () => ({
  uploadDataset: (options: UploadOptions) => {
    calls.push(options);
    return new Promise(() => undefined); // stays uploading
  },
}));

afterEach(() => {
  calls.length = 0;
  vi.unstubAllGlobals();
});

describe("the upload page after a resume", () => {
  it("says the upload resumed and from where", async () => {
    vi.stubGlobal("fetch", vi.fn(() => new Promise(() => undefined)));
    renderWithApp(<UploadPage />, { path: "/upload", route: "/upload" });
    const file = new File(["x".repeat(2000)], "big.log", { type: "text/plain" });
    await userEvent.upload(screen.getByTestId("file-input"), file);
    expect(screen.queryByTestId("upload-resumed")).not.toBeInTheDocument();
    const [options] = calls;
    act(() => options?.onResume?.({ fromBytes: 1500, totalBytes: 2000, reason: "reload" }));
    expect(screen.getByTestId("upload-resumed")).toHaveTextContent(
      "Resumed the earlier upload of this file at 1.5 kB of 2.0 kB",
    );
    expect(screen.getByTestId("upload-progress")).toHaveAttribute("aria-valuenow", "75");
    act(() => options?.onResume?.({ fromBytes: 1800, totalBytes: 2000, reason: "reconnect" }));
    expect(screen.getByTestId("upload-resumed")).toHaveTextContent("The connection dropped; resumed at 1.8 kB of 2.0 kB.");
  });
});
