import { screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { makeDataset, makeSummary } from "../../test/fixtures";
import { jsonResponse, renderWithApp } from "../../test/render";
import { ParseReport } from "./ParseReport";

function stubSummary() {
  vi.stubGlobal(
    "fetch",
    vi.fn(() => Promise.resolve(jsonResponse(200, makeSummary({ notes: ["arrival = completion - duration"] })))),
  );
}

afterEach(() => vi.unstubAllGlobals());

describe("ParseReport", () => {
  it("says the format was detected when the upload named none", async () => {
    stubSummary();
    renderWithApp(<ParseReport dataset={makeDataset({ status: "ready" })} />);
    expect(await screen.findByTestId("parse-format")).toHaveTextContent("Format detected");
    expect(screen.getByTestId("parse-format")).toHaveTextContent("arrival = completion - duration");
  });

  it("says the format was named at upload when a log format was given", async () => {
    stubSummary();
    const given = { format: null, log_format: "$remote_addr [$time_local] $request_time", zip_members: "first" } as const;
    renderWithApp(<ParseReport dataset={makeDataset({ status: "ready", parse_options: given })} />);
    const card = await screen.findByTestId("parse-format");
    expect(card).toHaveTextContent("Format given at upload");
    expect(card).toHaveTextContent("named at upload, not detected");
  });
});
