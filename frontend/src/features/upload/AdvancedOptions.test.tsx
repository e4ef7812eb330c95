import { screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { FakeXhr } from "../../test/fakeXhr";
import { renderWithApp } from "../../test/render";
import { KNOWN_FORMATS, parseParams } from "./formats";
import { UploadPage } from "./UploadPage";

const file = new File(["x".repeat(100)], "access.log", { type: "text/plain" });
const NGINX = '$remote_addr [$time_local] "$request" $status $body_bytes_sent $request_time';

beforeEach(() => {
  FakeXhr.reset();
  vi.stubGlobal("XMLHttpRequest", FakeXhr);
  vi.stubGlobal("fetch", vi.fn(() => new Promise(() => undefined)));
});

afterEach(() => {
  vi.unstubAllGlobals();
});

function params(): URLSearchParams {
  return new URL(FakeXhr.last().url, "http://x").searchParams;
}

describe("the upload page's Advanced options", () => {
  it("offers auto and every known format, detection by default", async () => {
    renderWithApp(<UploadPage />, { path: "/upload", route: "/upload" });
    const select = screen.getByTestId("upload-format");
    const options = Array.from(select.querySelectorAll("option"), (o) => o.value);
    expect(options).toEqual(["auto", ...KNOWN_FORMATS]);
    await userEvent.upload(screen.getByTestId("file-input"), file);
    expect([...params().keys()]).toEqual(["workspace_id", "name"]);
  });

  it("sends a chosen format and zip setting with the upload", async () => {
    renderWithApp(<UploadPage />, { path: "/upload", route: "/upload" });
    await userEvent.click(screen.getByText("Advanced"));
    await userEvent.selectOptions(screen.getByTestId("upload-format"), "combined_latency_us");
    await userEvent.selectOptions(screen.getByTestId("upload-zip-members"), "all");
    await userEvent.upload(screen.getByTestId("file-input"), file);
    expect(params().get("format")).toBe("combined_latency_us");
    expect(params().get("zip_members")).toBe("all");
    expect(params().get("log_format")).toBeNull();
  });

  it("sends a log format string instead of a format name", async () => {
    renderWithApp(<UploadPage />, { path: "/upload", route: "/upload" });
    await userEvent.click(screen.getByText("Advanced"));
    await userEvent.selectOptions(screen.getByTestId("upload-format"), "combined");
    await userEvent.type(screen.getByTestId("upload-log-format"), NGINX.replace(/[[{]/g, "$&$&"));
    expect(screen.getByTestId("upload-format")).toBeDisabled();
    await userEvent.upload(screen.getByTestId("file-input"), file);
    expect(params().get("log_format")).toBe(NGINX);
    expect(params().get("format")).toBeNull();
  });
});

describe("parseParams", () => {
  it("leaves the defaults out", () => {
    expect(parseParams({ format: "auto", logFormat: "  ", zipMembers: "first" })).toEqual({});
    expect(parseParams({ format: "w3c", logFormat: "", zipMembers: "first" })).toEqual({ format: "w3c" });
  });
});
