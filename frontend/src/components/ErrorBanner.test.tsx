import { render, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { ApiError, toApiError } from "../api/errors";
import { ErrorBanner } from "./ErrorBanner";

describe("toApiError", () => {
  it("reads the error envelope", () => {
    const e = toApiError(413, { error: { code: "file_too_large", message: "Too big.", field: "file", detail: null } });
    expect(e).toMatchObject({ status: 413, code: "file_too_large", message: "Too big.", field: "file" });
  });
  it("falls back to a sentence for bodies without an envelope", () => {
    expect(toApiError(422, { detail: "Field required" }).message).toBe("Field required");
    expect(toApiError(422, { detail: [{ loc: ["query", "limit"], msg: "Input should be a valid integer" }] })).toMatchObject({
      code: "validation_error",
      field: "limit",
      message: "limit: Input should be a valid integer",
    });
    expect(toApiError(500, null).message).toBe("The server hit an unexpected error. Try again in a moment.");
    expect(toApiError(418, [1, 2]).message).toBe("The server answered with HTTP 418.");
    expect(toApiError(400, { error: { code: 5, message: { nested: true } } })).toMatchObject({
      code: "http_400",
      message: "The server could not understand the request.",
    });
  });
});

describe("ErrorBanner", () => {
  it("never prints [object Object] for odd thrown values", () => {
    render(<ErrorBanner error={{ weird: true }} />);
    expect(screen.getByRole("alert")).toHaveTextContent("Something went wrong.");
    expect(screen.getByRole("alert")).not.toHaveTextContent("[object Object]");
  });
  it("shows the failing line of an unparseable log in a monospace block", () => {
    const detail = { line_number: 12345, line: "GET / nonsense", closest_format: null };
    render(<ErrorBanner error={new ApiError(422, "unparseable_log", "Cannot parse.", "file", detail)} hint="Fix it." />);
    expect(screen.getByRole("alert")).toHaveTextContent("Cannot parse.");
    expect(screen.getByText("Line 12,345:")).toBeInTheDocument();
    expect(screen.getByTestId("error-line").tagName).toBe("PRE");
    expect(screen.getByText("Fix it.")).toBeInTheDocument();
  });
});
